// The rules panel: how to play a rule set, in a few paragraphs and worked examples whose
// positions the server's rules made (GET /api/rules/{game}/help), drawn by the page's own
// board code. It opens on demand, on the game page and under the lobby's rule-set choice.

import { api } from './api.js';
import { BoardView } from './board.js';
import { CellNames } from './coords.js';
import { h, replaceChildren } from './dom.js';
import { Geometry } from './geometry.js';

const loaded = new Map(); // game → its help, asked for once

/** A closed "How to play GAME" panel; its contents load when it is first opened. */
export function rulesPanel(game) {
  const body = h('div', { class: 'rules-body' }, h('p', { class: 'loading' }, 'Loading…'));
  const panel = h('details', { class: 'rules-help', dataset: { game } },
    h('summary', null, `How to play ${game}`), body);
  panel.addEventListener('toggle', async () => {
    if (!panel.open || panel.dataset.loaded) return;
    panel.dataset.loaded = 'yes';
    try {
      if (!loaded.has(game)) loaded.set(game, await api.rulesHelp(game));
      showHelp(body, loaded.get(game));
    } catch (err) {
      delete panel.dataset.loaded;
      replaceChildren(body, h('p', { class: 'error' }, `The rules cannot be shown: ${err.message}`));
    }
  });
  return panel;
}

function showHelp(body, help) {
  replaceChildren(body,
    ...help.paragraphs.map((p) => h('p', null, p)),
    ...help.examples.map((example) => h('figure', { class: 'rules-example' },
      diagram(example),
      h('figcaption', null, h('strong', null, example.title), ' ', example.text))));
}

// The example's position on a small board: its stones, its last turn marked and its
// decisive cells highlighted, with the cells across the seams shown faded.
function diagram({ position, topology }) {
  const geometry = new Geometry(position, topology);
  const names = new CellNames(position.game, position.width, position.height);
  const board = new BoardView(geometry, () => {}, { names });
  const cells = geometry.cells.map(([x, y]) => position.board[y][x]);
  const last = position.moves.length ? position.moves[position.moves.length - 1] : null;
  board.render({
    board: cells,
    previous: null,
    last: last && last !== 'end' && last !== 'pass' ? [geometry.index(last)] : [],
    highlight: position.highlight.map((n) => geometry.index(n)),
    legal: null,
    toMove: 'b',
    heat: null,
  });
  board.svg.setAttribute('role', 'img');
  board.svg.setAttribute('aria-label', `the example's board: ${position.board.join(' / ')}`);
  board.svg.removeAttribute('tabindex');
  board.svg.classList.add('diagram');
  return board.svg;
}
