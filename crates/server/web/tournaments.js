// Tournaments: the list with a form to create one (`/tournaments`), and a tournament's page
// (`/tournament/<id>`): its settings, players, live standings with tie-breaks, a crosstable
// and every round's games, refreshed while it runs.

import { api, levelsPlaying } from './api.js';
import { h, replaceChildren } from './dom.js';
import { clockSettingsText, playerHref, playerLabel, whenText } from './format.js';
import { withNext } from './account.js';
import { askToNotify, notify } from './notify.js';

const LIST_LIMIT = 50;
const REFRESH_MS = 2000;
const FORMATS = { swiss: 'Swiss', 'round-robin': 'Round robin' };

function settingsText(t) {
  return `${t.game} · ${FORMATS[t.format]} · ${t.rounds} rounds · ${clockSettingsText(t.clock)} · ${t.rated ? 'rated' : 'casual'}`;
}

/** The list of tournaments and, for an account, the form that creates one. */
export async function showTournaments(root, session, navigate) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading…'));
  let rules;
  let levels;
  let list;
  try {
    [rules, levels, list] = await Promise.all([api.rules(), api.levels(), api.tournaments(LIST_LIMIT)]);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `The server did not answer: ${err.message}`));
    return () => {};
  }
  const items = list.length === 0
    ? h('p', { class: 'empty' }, 'No tournament yet.')
    : h('ul', { class: 'game-list tournament-list', 'aria-label': 'tournaments' }, ...list.map((t) => h('li', { dataset: { id: t.id } },
      h('a', { href: `/tournament/${encodeURIComponent(t.id)}` },
        h('strong', null, t.name), ' ', h('span', { class: 'params' }, t.stage),
        h('span', { class: 'players' }, settingsText(t)),
        h('span', { class: 'detail' }, `${t.players} players · created by ${t.creator} · ${whenText(t.created_at)}`)))));
  const create = session && session.account
    ? tournamentForm(rules, levels, async (spec) => {
      const t = await api.createTournament(spec);
      navigate(`/tournament/${encodeURIComponent(t.id)}`);
    })
    : h('p', null, 'Tournaments are created and played by accounts. ',
      h('a', { href: withNext('/signup', '/tournaments') }, 'Create an account'), ' or ',
      h('a', { href: withNext('/signin', '/tournaments') }, 'sign in'), '.');
  replaceChildren(root, h('section', { class: 'lobby' },
    h('div', { class: 'card' }, h('h2', null, 'New tournament'), create),
    h('div', { class: 'card lists' }, h('h2', null, 'Tournaments'), items)));
  return () => {};
}

function tournamentForm(rules, levels, onCreate) {
  const field = (id, label, input) => h('div', { class: 'field' }, h('label', { for: id }, label), input);
  const name = h('input', { id: 't-name', name: 'name', required: true, maxlength: 64 });
  const game = h('select', { id: 't-game', name: 'game' }, ...rules.map((r) => h('option', { value: r.name }, r.name)));
  const format = h('select', { id: 't-format', name: 'format' },
    ...Object.entries(FORMATS).map(([value, label]) => h('option', { value }, label)));
  const rounds = h('input', { id: 't-rounds', name: 'rounds', type: 'number', min: 1, max: 63, step: 1, value: 3, required: true });
  const minutes = h('input', { id: 't-minutes', name: 'minutes', type: 'number', min: 0.5, step: 0.5, value: 3, required: true });
  const increment = h('input', { id: 't-increment', name: 'increment', type: 'number', min: 0, step: 1, value: 2, required: true });
  const rated = h('input', { id: 't-rated', name: 'rated', type: 'checkbox', checked: true });
  // The creator plays in their tournament unless they say not.
  const join = h('input', { id: 't-join', name: 'join', type: 'checkbox', checked: true });
  const house = h('fieldset', { class: 'house-levels' }, h('legend', null, 'House bots taking part'),
    ...levels.map((level) => h('label', { class: 'choice' },
      h('input', { type: 'checkbox', name: 'house', value: level }), ' ', level)));
  // Only the levels that play the rule set may take part (`zero` needs its network).
  const offerLevels = async () => {
    const playing = await levelsPlaying(game.value, game);
    if (!playing) return;
    for (const box of house.querySelectorAll('input[name=house]')) {
      box.disabled = !playing.includes(box.value);
      if (box.disabled) box.checked = false;
    }
  };
  game.addEventListener('change', offerLevels);
  offerLevels();
  const error = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create tournament');
  const form = h('form', { class: 'new-game new-tournament', 'aria-label': 'new tournament' },
    field('t-name', 'Name', name), field('t-game', 'Rule set', game),
    h('small', { class: 'help' }, 'Played at the rule set\'s default parameters, the rated pool\'s.'),
    field('t-format', 'Format', format), field('t-rounds', 'Rounds', rounds),
    field('t-minutes', 'Minutes each', minutes), field('t-increment', 'Seconds added a move', increment),
    h('div', { class: 'field' }, h('label', { for: 't-rated' }, 'Rated'), rated),
    h('div', { class: 'field' }, h('label', { for: 't-join' }, 'I play in it'), join),
    house, submit, error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    submit.disabled = true;
    try {
      await onCreate({
        name: name.value.trim(),
        game: game.value,
        format: format.value,
        rounds: Number(rounds.value),
        clock: { initial_s: Math.round(Number(minutes.value) * 60), increment_s: Number(increment.value) },
        rated: rated.checked,
        join: join.checked,
        house: [...house.querySelectorAll('input:checked')].map((i) => i.value),
      });
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/** Tournament `id`, refreshed every two seconds until it is over. */
export async function showTournament(root, id, session) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading…'));
  let timer = null;
  let stopped = false;
  // The games the visitor was told of (once each).
  const announced = new Set();
  const error = h('p', { class: 'error', role: 'alert' });
  const body = h('div');
  const act = (call) => async () => {
    error.textContent = '';
    try {
      draw(await call(id));
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const draw = (t) => {
    const mine = session && session.account;
    const joined = mine && t.players.some((p) => p.kind === 'person' && p.name === session.name);
    const open = t.stage === 'open';
    const buttons = [
      open && mine && !joined ? h('button', { type: 'button', class: 'primary', onclick: () => { askToNotify(); act(api.joinTournament)(); } }, 'Join') : null,
      open && mine && t.creator === session.name
        ? h('button', { type: 'button', onclick: act(api.startTournament) }, 'Start now') : null,
      open && !mine ? h('p', null, h('a', { href: withNext('/signin', location.pathname) }, 'Sign in'), ' to join.') : null,
    ];
    const stageText = { open: 'open: players join until its creator starts it', running: `round ${t.played.length} of ${t.rounds} under way`, finished: 'finished',
      cancelling: 'cancelled by a moderator: its games are being stopped', cancelled: 'cancelled by a moderator' }[t.stage];
    const yours = joined ? yourGame(t, session.name) : null;
    if (yours && !announced.has(yours.game_id)) {
      announced.add(yours.game_id);
      notify(`Your game in ${t.name} has started`, `Round ${t.played.length}: ${yours.black} (black) vs ${yours.white} (white)`, yours.href);
    }
    replaceChildren(body,
      h('h1', null, t.name),
      yours ? h('p', { class: 'your-game', role: 'alert' }, `Your game of round ${t.played.length} has started: `,
        h('a', { href: yours.href, class: 'button primary' }, 'Play it')) : null,
      h('p', { class: 'detail' }, settingsText(t), ` · created by ${t.creator}`),
      h('p', { class: 'stage', dataset: { stage: t.stage } }, `Stage: ${stageText}`),
      h('div', { class: 'actions' }, ...buttons), error,
      h('h2', null, `Players (${t.players.length})`),
      h('ul', { class: 'players' }, ...t.players.map((p) => h('li', null, playerLink(p)))),
      t.standings.length ? [h('h2', null, 'Standings'), standings(t), h('h2', null, 'Crosstable'), crosstable(t)] : null,
      t.played.length ? [h('h2', null, 'Rounds'), ...t.played.map(roundView)] : null);
    if (!['finished', 'cancelled'].includes(t.stage) && !stopped) timer = setTimeout(refresh, REFRESH_MS);
  };
  const refresh = async () => {
    try {
      draw(await api.tournament(id));
    } catch (err) {
      error.textContent = `Cannot refresh: ${err.message}`;
      if (!stopped) timer = setTimeout(refresh, REFRESH_MS);
    }
  };
  try {
    const t = await api.tournament(id);
    replaceChildren(root, h('section', { class: 'card tournament' }, body));
    draw(t);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `Cannot show this tournament: ${err.message}`));
  }
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

// The game of the current round that `name` plays, while it is played: with a link to it.
function yourGame(t, name) {
  const round = t.played[t.played.length - 1];
  const game = round && round.games.find((g) => g.result === null && g.game_id && (g.black === name || g.white === name));
  return game ? { ...game, href: `/game/${encodeURIComponent(game.game_id)}` } : null;
}

function playerLink(player) {
  return h('a', { href: playerHref(player.name) }, playerLabel(player));
}

function standings(t) {
  return h('table', { class: 'standings' },
    h('caption', null, 'Score, then Buchholz (the opponents\' scores), then Sonneborn-Berger.'),
    h('thead', null, h('tr', null, ...['#', 'Player', 'Score', 'Buchholz', 'S-B'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, ...t.standings.map((s) => h('tr', null,
      h('td', null, String(s.rank)), h('td', null, playerLink(s.player)),
      h('td', { class: 'num' }, points(s.score)), h('td', { class: 'num' }, points(s.buchholz)),
      h('td', { class: 'num' }, points(s.sonneborn_berger))))));
}

/** 1.5 as "1½". */
function points(value) {
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? '½' : '';
  return whole === 0 && half ? half : `${whole}${half}`;
}

// Each player's result against each other, in standings order: 1, 0 or ½ linked to the
// game, "…" while it is played.
function crosstable(t) {
  const order = t.standings.map((s) => s.player.name);
  const cells = new Map();
  for (const round of t.played) {
    for (const g of round.games) {
      const [white, black] = g.result === null ? ['…', '…']
        : g.result === 'draw' ? ['½', '½'] : g.result === 'white' ? ['1', '0'] : ['0', '1'];
      cells.set(`${g.white}\n${g.black}`, { text: white, game: g.game_id });
      cells.set(`${g.black}\n${g.white}`, { text: black, game: g.game_id });
    }
  }
  return h('table', { class: 'crosstable' },
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Player'),
      ...order.map((name, i) => h('th', { scope: 'col', title: name }, String(i + 1))))),
    h('tbody', null, ...order.map((name, i) => h('tr', null,
      h('th', { scope: 'row' }, `${i + 1}. ${name}`),
      ...order.map((other) => {
        if (other === name) return h('td', { class: 'self', 'aria-label': 'no game' }, '—');
        const cell = cells.get(`${name}\n${other}`);
        if (!cell) return h('td', null, '');
        return h('td', { class: 'num' }, cell.game
          ? h('a', { href: `/game/${encodeURIComponent(cell.game)}`, 'aria-label': `${name} against ${other}: ${cell.text}` }, cell.text)
          : cell.text);
      })))));
}

function roundView(round, index) {
  const word = { white: 'white wins', black: 'black wins', draw: 'draw' };
  return h('section', { class: 'round' }, h('h3', null, `Round ${index + 1}`),
    h('ul', null, ...round.games.map((g) => h('li', null,
      h('a', { href: g.game_id ? `/game/${encodeURIComponent(g.game_id)}` : null },
        `${g.black} (black) vs ${g.white} (white)`), ': ', g.result ? word[g.result] : 'playing')),
    round.bye ? h('li', null, `${round.bye}: bye`) : null));
}
