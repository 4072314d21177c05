// Quick pairing, as lichess's lobby: a grid of rule set × clock. A click asks the server
// (POST /api/pool) for a game of that cell at the rule set's default parameters: it joins
// someone who waits for the same, or opens a game and waits in it on the game's page.

import { api } from './api.js';
import { h } from './dom.js';
import { askToNotify } from './notify.js';

/** The clocks of the grid's columns: two live ones and a move a day. */
export const POOL_CLOCKS = [
  { label: '3+2', clock: { initial_s: 180, increment_s: 2 }, words: '3 minutes plus 2 seconds a move' },
  { label: '10+5', clock: { initial_s: 600, increment_s: 5 }, words: '10 minutes plus 5 seconds a move' },
  { label: '1 day', clock: { days_per_move: 1 }, words: 'a day a move' },
];

/** The grid for `rules` (GET /api/rules); `navigate(path)` opens the game a click gives. */
export function quickPairing(rules, navigate) {
  const error = h('p', { class: 'error', role: 'alert' });
  const cell = (rule, { label, clock, words }) => h('td', null, h('button', {
    type: 'button',
    class: 'pool',
    dataset: { game: rule.name, clock: label },
    'aria-label': `${label}: quick pairing for ${rule.name}, ${words}`,
    onclick: async (event) => {
      askToNotify();
      error.textContent = '';
      event.currentTarget.disabled = true;
      try {
        const game = await api.pool({ game: rule.name, clock });
        navigate(`/game/${encodeURIComponent(game.id)}`);
      } catch (err) {
        error.textContent = err.message;
        event.target.disabled = false;
      }
    },
  }, label));
  return h('div', { class: 'quick-pairing' },
    h('table', { class: 'pool-grid' },
      h('caption', null, 'A click pairs you with the next person who clicks the same, at the rule set\'s usual board.'),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Rule set'), ...POOL_CLOCKS.map((c) => h('th', { scope: 'col' }, c.label)))),
      h('tbody', null, ...rules.map((rule) => h('tr', null,
        h('th', { scope: 'row' }, rule.name), ...POOL_CLOCKS.map((c) => cell(rule, c)))))),
    error);
}
