// Lessons (`/learn`, `/learn?game=NAME`): for each rule set, positions from its rules help
// where the player to move is asked to win or to capture, on the real board. A click plays
// the move; the server's rules say whether it did what was asked (POST
// /api/rules/{game}/lessons/{n}) and why, and the board shows what it did.

import { api } from './api.js';
import { BoardView } from './board.js';
import { CellNames } from './coords.js';
import { h, replaceChildren } from './dom.js';
import { Geometry } from './geometry.js';

/** The lessons page, for rule set `game` (the first if none). */
export async function showLessons(root, game) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading…'));
  let rules;
  try {
    rules = await api.rules();
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `The server did not answer: ${err.message}`));
    return () => {};
  }
  const chosen = rules.some((r) => r.name === game) ? game : rules[0].name;
  const body = h('div', { class: 'lessons-body' });
  replaceChildren(root, h('section', { class: 'card lessons' },
    h('h1', null, 'Learn'),
    h('p', null, 'A position from each rule set, with one thing to find. The rules judge your move.'),
    h('nav', { class: 'lesson-games', 'aria-label': 'rule sets' }, ...rules.map((r) =>
      h('a', { href: `/learn?game=${encodeURIComponent(r.name)}`, 'aria-current': r.name === chosen ? 'page' : null }, r.name))),
    body));
  try {
    const lessons = await api.lessons(chosen);
    replaceChildren(body, ...lessons.map((lesson, i) => lessonView(chosen, lesson, i)));
  } catch (err) {
    replaceChildren(body, h('p', { class: 'error', role: 'alert' }, err.message));
  }
  return () => {};
}

function lessonView(game, lesson, index) {
  const feedback = h('p', { class: 'lesson-feedback', role: 'status', 'aria-live': 'polite' });
  let solved = false;
  const board = questionBoard(lesson.position, lesson.topology, async (move, label) => {
    if (solved) return;
    feedback.textContent = `Playing ${label}…`;
    try {
      const answer = await api.answerLesson(game, index, move);
      feedback.textContent = answer.explanation;
      feedback.className = `lesson-feedback ${answer.solved ? 'solved' : 'wrong'}`;
      if (answer.solved) {
        solved = true;
        board.show(answer.position);
      }
    } catch (err) {
      feedback.textContent = err.message;
    }
  });
  board.svg.classList.add('lesson-board');
  return h('article', { class: 'lesson', dataset: { game, index: String(index) } },
    h('h2', null, lesson.title),
    h('p', { class: 'lesson-prompt' }, lesson.prompt),
    h('div', { class: 'board-scroll' }, board.svg),
    feedback);
}

/**
 * A board that asks for one move in `position` (a GameView) on `topology`: a click on a
 * legal cell calls `onMove(notation, label)`. `show(view)` shows another position (the one
 * after the answer) with nothing left to play. Lessons and puzzles use it.
 */
export function questionBoard(position, topology, onMove) {
  const geometry = new Geometry(position, topology);
  const names = new CellNames(position.game, position.width, position.height);
  const toMove = position.to_move === 'white' ? 'w' : 'b';
  const cells = (view) => geometry.cells.map(([x, y]) => view.board[y][x]);
  const board = new BoardView(geometry, (move) => onMove(move, names.label(move)), { names });
  function show(view, legal = new Set()) {
    const last = view.moves.length ? view.moves[view.moves.length - 1] : null;
    board.render({
      board: cells(view),
      previous: null,
      last: last && last !== 'end' && last !== 'pass' ? [geometry.index(last)] : [],
      highlight: view.highlight.map((n) => geometry.index(n)),
      legal,
      toMove,
      heat: null,
    });
  }
  show(position, new Set(position.legal_moves.filter((m) => m !== 'pass' && m !== 'end')));
  return { svg: board.svg, show, label: (move) => names.label(move) };
}
