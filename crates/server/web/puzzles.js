// Puzzles (`/puzzles`, `/puzzles?game=NAME`, `/puzzles/<id>`): positions mined from
// finished games where one move wins the quickest or saves the game, one at a time, near
// the player's puzzle rating. A click plays the move; the server judges it (POST
// /api/puzzles/<id>/attempt), says why, shows the answer and, on a signed-in player's
// first try, the change of its puzzle rating.

import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { withNext } from './account.js';
import { questionBoard } from './lessons.js';

/** The puzzles page: puzzle `id`, or the next one of rule set `game` (else the first). */
export async function showPuzzles(root, { game, id, skip }, session, navigate) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading…'));
  let pools;
  let puzzle = null;
  try {
    pools = await api.puzzlePools();
    if (id) puzzle = await api.puzzle(id);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, err.message));
    return () => {};
  }
  const chosen = puzzle?.game
    ?? (pools.some((p) => p.game === game) ? game : (pools.find((p) => p.puzzles > 0) ?? pools[0]).game);
  const pool = pools.find((p) => p.game === chosen);
  const body = h('div', { class: 'puzzle-body' });
  const here = location.pathname + location.search;
  const standing = h('p', { class: 'puzzle-standing' }, !session?.account
    ? [h('a', { href: withNext('/signin', here) }, 'Sign in'), ' or ',
      h('a', { href: withNext('/signup', here) }, 'create an account'), ' to keep a puzzle rating.']
    : pool.rating === null ? 'Your first puzzle here sets your puzzle rating.'
      : `Your ${chosen} puzzle rating: ${Math.round(pool.rating)} (${pool.attempts} tried).`);
  replaceChildren(root, h('section', { class: 'card puzzles' },
    h('h1', null, 'Puzzles'),
    h('p', null, 'Positions from finished games where exactly one move wins the quickest or saves the game, as a search of every reply proves.'),
    h('nav', { class: 'lesson-games', 'aria-label': 'rule sets' }, ...pools.map((p) =>
      h('a', { href: `/puzzles?game=${encodeURIComponent(p.game)}`, 'aria-current': p.game === chosen ? 'page' : null },
        `${p.game} (${p.puzzles})`))),
    standing,
    body));
  if (!puzzle) {
    try {
      puzzle = await api.nextPuzzle(chosen, skip);
    } catch (err) {
      const none = err.status === 404;
      const why = pool.puzzles ? `No ${chosen} puzzle left for you` : `No ${chosen} puzzles yet`;
      replaceChildren(body, h('p', { class: none ? 'empty' : 'error', role: none ? null : 'alert' },
        none ? `${why}: puzzles come from finished games. ` : err.message),
      none ? h('a', { href: '/' }, 'Play a game') : null);
      return () => {};
    }
  }
  replaceChildren(body, puzzleView(puzzle, navigate, (change) => {
    if (change) replaceChildren(standing, `Your ${chosen} puzzle rating: ${Math.round(change.after)}.`);
  }));
  return () => {};
}

// A puzzle to solve; `rated(change)` hears of the rating change of an attempt (or null).
function puzzleView(puzzle, navigate, rated) {
  const title = h('h2', null, `Puzzle rated ${Math.round(puzzle.rating)}`);
  const feedback = h('p', { class: 'lesson-feedback', role: 'status', 'aria-live': 'polite' });
  const after = h('div', { class: 'puzzle-after' });
  let answered = false;
  const board = questionBoard(puzzle.position, puzzle.topology, async (move, label) => {
    if (answered) return;
    feedback.textContent = `Playing ${label}…`;
    try {
      const answer = await api.attemptPuzzle(puzzle.id, move);
      answered = true;
      feedback.textContent = answer.explanation;
      feedback.className = `lesson-feedback ${answer.solved ? 'solved' : 'wrong'}`;
      board.show(answer.position);
      const change = answer.rating;
      title.textContent = `Puzzle rated ${Math.round(answer.puzzle_rating)}`;
      rated(change);
      const next = `/puzzles?game=${encodeURIComponent(puzzle.game)}&skip=${encodeURIComponent(puzzle.id)}`;
      replaceChildren(after,
        change ? h('p', { class: `puzzle-rating ${change.after >= change.before ? 'up' : 'down'}` },
          `Your puzzle rating: ${Math.round(change.before)} → ${Math.round(change.after)}`) : null,
        h('p', null, answer.solved ? '' : `The answer: ${board.label(answer.answer)}. `, 'The puzzle comes from ',
          h('a', { href: `/game/${encodeURIComponent(answer.game_id)}` }, 'this game'), `, after move ${answer.ply}.`),
        h('a', { class: 'button next-puzzle', href: next, onclick: (e) => { e.preventDefault(); navigate(next); } }, 'Next puzzle'));
      after.scrollIntoView({ block: 'nearest' });
    } catch (err) {
      feedback.textContent = err.message;
      feedback.className = 'lesson-feedback wrong';
    }
  });
  board.svg.classList.add('lesson-board');
  const tried = puzzle.tried === null ? '' : ' You tried it before: this try is not rated.';
  return h('article', { class: 'lesson puzzle', dataset: { id: puzzle.id, game: puzzle.game, goal: puzzle.goal } },
    title,
    h('p', { class: 'lesson-prompt' }, puzzle.prompt + tried),
    h('div', { class: 'board-scroll' }, board.svg),
    feedback,
    after);
}
