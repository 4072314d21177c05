// Ratings: a rule set's leaderboard (`/leaderboard/<game>`) and a player's page
// (`/player/<name>`: ratings in every pool with an SVG graph of each, recent games, bots).

import { api } from './api.js';
import { h, s, replaceChildren } from './dom.js';
import { gameItem } from './lobby.js';
import { playerHref, playerLabel, whenText } from './format.js';
import { challengeForm } from './challenges.js';
import { reportForm } from './moderation.js';

/** Follow or Unfollow `name`, as the visitor does now. */
async function followButton(name) {
  let following = false;
  try {
    following = (await api.follows()).some((f) => f.name.toLowerCase() === name.toLowerCase());
  } catch {
    // Shown as not followed: a click says what is wrong.
  }
  const button = h('button', { type: 'button', class: 'follow' });
  const show = () => {
    button.textContent = following ? 'Unfollow' : 'Follow';
    button.setAttribute('aria-pressed', String(following));
  };
  button.addEventListener('click', async () => {
    try {
      await (following ? api.unfollow(name) : api.follow(name));
      following = !following;
      show();
    } catch (err) {
      button.after(h('span', { class: 'error', role: 'alert' }, ` ${err.message}`));
    }
  });
  show();
  return button;
}

/** A rating as "1662" or "1500?" while provisional, as lichess writes it. */
function ratingText(r) {
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** The leaderboard of rule set `game`, with a tab for every rule set. */
export async function showLeaderboard(root, game) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading…'));
  let rules;
  let board;
  try {
    [rules, board] = await Promise.all([api.rules(), api.leaderboard(game)]);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `Cannot show this leaderboard: ${err.message}`));
    return () => {};
  }
  const tabs = h('nav', { class: 'tabs', 'aria-label': 'rule sets' },
    ...rules.map((r) => h('a', {
      href: `/leaderboard/${encodeURIComponent(r.name)}`,
      'aria-current': r.name === game ? 'page' : null,
    }, r.name)));
  const table = board.length === 0
    ? h('p', { class: 'empty' }, `Nobody has played a rated game of ${game} yet.`)
    : h('table', { class: 'leaderboard' },
      h('caption', null, `${game}: rated players at the default parameters, by Glicko-2 rating. `,
        'A ? marks a provisional rating (deviation above 110).'),
      h('thead', null, h('tr', null, ...['#', 'Player', 'Rating', 'Deviation', 'Games']
        .map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', null, ...board.map((r, i) => h('tr', null,
        h('td', null, String(i + 1)),
        h('td', null, h('a', { href: playerHref(r.name) }, playerLabel(r))),
        h('td', { class: 'num' }, ratingText(r)),
        h('td', { class: 'num' }, `±${Math.round(r.deviation)}`),
        h('td', { class: 'num' }, String(r.games))))));
  replaceChildren(root, h('section', { class: 'card ratings' }, h('h1', null, 'Leaderboards'), tabs, table));
  return () => {};
}

/** The page of player `name`. */
export async function showPlayer(root, name, session) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading…'));
  let page;
  try {
    page = await api.player(name);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `Cannot show this player: ${err.message}`));
    return () => {};
  }
  const kind = { person: 'player', bot: 'registered bot', house: 'house bot' }[page.kind] || page.kind;
  const pools = page.ratings.length === 0
    ? h('p', { class: 'empty' }, 'No rated game yet.')
    : h('div', { class: 'pools' }, ...page.ratings.map((r) => h('section', { class: 'pool', dataset: { pool: r.pool } },
      h('h3', null, h('a', { href: `/leaderboard/${encodeURIComponent(r.pool)}` }, r.pool), ' ',
        h('span', { class: 'rating' }, ratingText(r))),
      h('p', { class: 'detail' }, `deviation ±${Math.round(r.deviation)} · ${r.games} rated game${r.games === 1 ? '' : 's'}`
        + (r.provisional ? ' · provisional' : '')),
      ratingGraph(r))));
  const games = page.games.length === 0
    ? h('p', { class: 'empty' }, 'No finished game yet.')
    : h('ul', { class: 'game-list finished-games', 'aria-label': 'recent games' }, ...page.games.map((g) => gameItem(g)));
  const bots = page.kind === 'person'
    ? [h('h2', null, 'Bots'), page.bots.length === 0
      ? h('p', { class: 'empty' }, 'No registered bot.')
      : h('ul', { class: 'bots' }, ...page.bots.map((b) => h('li', null, h('a', { href: playerHref(b) }, b))))]
    : [];
  // Another person's or a bot's page: it may be reported, and the player blocked.
  const others = session && page.kind !== 'house' && page.name !== session.name;
  const report = others ? h('details', { class: 'report' }, h('summary', null, 'Report or block'),
    reportForm(page.name, { player: page.name }, () => { report.open = false; })) : null;
  const challenge = others ? challengeForm(page.name, await api.rules()) : null;
  const follow = others ? await followButton(page.name) : null;
  replaceChildren(root, h('section', { class: 'card player-page' },
    h('h1', null, page.name, ' ', h('small', { class: 'kind' }, kind)),
    follow,
    challenge,
    report,
    h('h2', null, 'Ratings'), pools,
    ...bots,
    h('h2', null, 'Recent games'), games));
  return () => {};
}

const GRAPH = { width: 480, height: 180, pad: 40 };

/**
 * A pool's rating after each game as an SVG line from the start (1500), with the highest
 * and lowest values on the axis and each point titled with its game's date.
 */
function ratingGraph(pool) {
  const points = [{ rating: 1500, at: null }, ...pool.history];
  const values = points.map((p) => p.rating);
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const span = Math.max(high - low, 50);
  const mid = (low + high) / 2;
  const { width, height, pad } = GRAPH;
  const x = (i) => pad + (i * (width - pad - 8)) / Math.max(points.length - 1, 1);
  const y = (v) => height / 2 - ((v - mid) * (height - 24)) / span;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const last = points[points.length - 1].rating;
  const label = `${pool.pool} rating after each of ${pool.history.length} rated games: from 1500 to ${Math.round(last)}, `
    + `lowest ${Math.round(low)}, highest ${Math.round(high)}`;
  return s('svg', {
    class: 'rating-graph', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label,
    dataset: { points: String(points.length) },
  },
  s('line', { class: 'axis', x1: pad, y1: 4, x2: pad, y2: height - 4 }),
  s('text', { class: 'tick', x: pad - 4, y: y(high) + 4, 'text-anchor': 'end' }, String(Math.round(high))),
  s('text', { class: 'tick', x: pad - 4, y: y(low) + 4, 'text-anchor': 'end' }, String(Math.round(low))),
  s('polyline', { class: 'line', points: line }),
  ...points.slice(1).map((p, i) => s('circle', { class: 'point', cx: x(i + 1), cy: y(p.rating), r: 2.5 },
    s('title', null, `${Math.round(p.rating)} after the game of ${whenText(p.at)}`))));
}
