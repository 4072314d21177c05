// The lobby: the new-game form, live games to spectate, open invitations (their creators
// find their invite links there) and finished games to replay.

import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { paramsText, playerLabel, resultText, whenText } from './format.js';
import { newGameForm } from './newgame.js';

const LIST_LIMIT = 30;
const REFRESH_MS = 10_000;

/**
 * Shows the lobby in `root` to `session`; `navigate(path)` opens a page. Returns a teardown
 * function.
 */
export async function showLobby(root, session, navigate) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading…'));
  let rules;
  let levels;
  try {
    [rules, levels] = await Promise.all([api.rules(), api.levels()]);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `The server did not answer: ${err.message}`));
    return () => {};
  }
  const form = newGameForm(rules, levels, session, async (spec) => {
    const game = await api.create(spec);
    navigate(`/game/${encodeURIComponent(game.id)}`);
  });
  const list = (status) => h('ul', { class: `game-list ${status}-games`, 'aria-label': `${status} games` });
  const [live, waiting, finished] = [list('live'), list('waiting'), list('finished')];
  const refresh = async () => {
    await Promise.all([fillList(live, 'live', 'No game is being played right now.'),
      fillList(waiting, 'waiting', 'No invitation is open.'),
      fillList(finished, 'finished', 'No game has finished yet.')]);
  };
  replaceChildren(root, h('section', { class: 'lobby' },
    h('div', { class: 'card' }, h('h2', null, 'New game'), form),
    h('div', { class: 'card lists' },
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

async function fillList(list, status, empty) {
  let games;
  try {
    games = await api.games(status, LIST_LIMIT);
  } catch (err) {
    replaceChildren(list, h('li', { class: 'error' }, err.message));
    return;
  }
  if (games.length === 0) {
    replaceChildren(list, h('li', { class: 'empty' }, empty));
    return;
  }
  replaceChildren(list, ...games.map((g) => gameItem(g, status)));
}

/** A game of a list, linked to its page: rule set, players and how far it went. */
export function gameItem(g, status) {
  const players = `${playerLabel(g.players.black)} vs ${playerLabel(g.players.white)}`;
  const detail = status === 'finished'
    ? `${resultText(g.result)} · ${g.plies} moves · ${whenText(g.finished_at)}`
    : `${g.plies} moves · started ${whenText(g.created_at)}`;
  return h('li', { dataset: { id: g.id } },
    h('a', { href: `/game/${encodeURIComponent(g.id)}` },
      h('strong', null, g.game), ' ',
      h('span', { class: 'params' }, [paramsText(g.params), g.rated ? 'rated' : null].filter(Boolean).join(' · ')),
      h('span', { class: 'players' }, players),
      h('span', { class: 'detail' }, detail)));
}
