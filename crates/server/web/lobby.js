// The lobby: the new-game form (or, before a name is chosen, the guest form), the visitor's
// challenges and own games, live games to spectate, open invitations (their creators find their invite
// links there) and finished games to replay. Anyone can browse and spectate without a name.

import { guestForm } from './account.js';
import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { paramsText, playerHref, playerLabel, resultText, whenText } from './format.js';
import { challengeList } from './challenges.js';
import { newGameForm } from './newgame.js';
import { quickPairing } from './pairing.js';
import { rulesPanel } from './rules.js';

const LIST_LIMIT = 30;
const REFRESH_MS = 10_000;
const MY_LIMIT = 10;

/**
 * Shows the lobby in `root` to `session` (null before a name is chosen); `navigate(path)`
 * opens a page, `onSession(session)` takes a new guest session. Returns a teardown function.
 */
export async function showLobby(root, session, navigate, onSession) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading…'));
  let rules;
  let levels;
  try {
    [rules, levels] = await Promise.all([api.rules(), api.levels()]);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `The server did not answer: ${err.message}`));
    return () => {};
  }
  const form = session
    ? newGameForm(rules, levels, session, async (spec) => {
      const game = await api.create(spec);
      navigate(`/game/${encodeURIComponent(game.id)}`);
    })
    : guestForm('Choose a name to play, invite a friend or play a house bot. Watching needs none.', onSession);
  const list = (status) => h('ul', { class: `game-list ${status}-games`, 'aria-label': `${status} games` });
  const [mine, live, waiting, finished] = [list('my'), list('live'), list('waiting'), list('finished')];
  const challenges = session ? challengeList(navigate) : null;
  const following = h('ul', { class: 'following', 'aria-label': 'players you follow' });
  const refresh = async () => {
    await Promise.all([
      challenges?.refresh(),
      session ? fillFollowing(following) : null,
      session ? fillList(mine, 'my', 'You have not played yet.', () => api.myGames(MY_LIMIT)) : null,
      fillList(live, 'live', 'No game is being played right now.'),
      fillList(waiting, 'waiting', 'No game waits for an opponent.'),
      fillList(finished, 'finished', 'No game has finished yet.')]);
  };
  replaceChildren(root, h('section', { class: 'lobby' },
    h('h1', { class: 'sr-only' }, 'Lobby'),
    h('div', { class: 'card' },
      session ? [h('h2', { id: 'quick-pairing', tabindex: -1 }, 'Quick pairing'), quickPairing(rules, navigate)] : null,
      session ? h('h2', null, 'New game') : null, form,
      // Before a name is chosen (the form explains each rule set once there is one).
      session ? null : [h('h2', null, 'How to play'), ...rules.map((r) => rulesPanel(r.name))]),
    h('div', { class: 'card lists' },
      session ? [h('h2', null, 'Challenges'), challenges.list, h('h2', null, 'My games'), mine,
        h('h2', null, 'Following'), following] : null,
      h('div', { class: 'list-head' }, h('h2', null, 'Live games'),
        h('button', { type: 'button', class: 'refresh', 'aria-label': 'Refresh the lists of games', onclick: refresh }, '↻ Refresh')),
      live,
      h('h2', null, 'Waiting for an opponent'),
      waiting,
      h('h2', null, 'Finished games'),
      finished)));
  await refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  return () => clearInterval(timer);
}

// The players the visitor follows: online or not, their live games, and their page (where
// they are challenged).
async function fillFollowing(list) {
  let follows;
  try {
    follows = await api.follows();
  } catch (err) {
    replaceChildren(list, h('li', { class: 'error' }, err.message));
    return;
  }
  if (follows.length === 0) {
    replaceChildren(list, h('li', { class: 'empty' }, 'Nobody yet: follow a player from their page.'));
    return;
  }
  replaceChildren(list, ...follows.map((f) => h('li', { dataset: { name: f.name }, class: f.online ? 'online' : 'offline' },
    h('span', { class: 'presence' }, f.online ? '● online' : '○ offline'), ' ',
    h('a', { href: playerHref(f.name) }, f.name), ' ',
    ...f.games.map((g) => h('a', { class: 'live-game', href: `/game/${encodeURIComponent(g.id)}` }, `watch ${g.game}`)),
    h('a', { class: 'challenge-link', href: playerHref(f.name) }, 'Challenge'))));
}

async function fillList(list, status, empty, load = () => api.games(status, LIST_LIMIT)) {
  let games;
  try {
    games = await load();
  } catch (err) {
    replaceChildren(list, h('li', { class: 'error' }, err.message));
    return;
  }
  if (games.length === 0) {
    replaceChildren(list, h('li', { class: 'empty' }, empty));
    return;
  }
  replaceChildren(list, ...games.map((g) => gameItem(g)));
}

/** A game of a list, linked to its page: rule set, players and how far it went. */
export function gameItem(g) {
  const players = `${playerLabel(g.players.black)} vs ${playerLabel(g.players.white)}`;
  const moves = `${g.plies} move${g.plies === 1 ? '' : 's'}`;
  const detail = {
    finished: () => `${resultText(g.result)} · ${moves} · ${whenText(g.finished_at)}`,
    waiting: () => `waiting for an opponent · opened ${whenText(g.created_at)}`,
  }[g.status]?.() ?? `live · ${moves} · started ${whenText(g.created_at)}`;
  return h('li', { dataset: { id: g.id }, class: g.your_turn ? 'your-turn' : null },
    h('a', { href: `/game/${encodeURIComponent(g.id)}` },
      g.your_turn ? h('span', { class: 'turn-badge' }, 'Your turn') : null,
      h('strong', null, g.game), ' ',
      h('span', { class: 'params' }, [paramsText(g.params), g.rated ? 'rated' : null].filter(Boolean).join(' · ')),
      h('span', { class: 'players' }, players),
      h('span', { class: 'detail' }, detail)));
}
