// The review of a finished game (GET/POST /api/games/{id}/review): asked for from the game's
// page, its progress while the house engine makes it, then an evaluation graph under the
// board (black's chance to win after each move; a click goes to that move), the engine's
// move and line at the position shown, and each move marked inaccuracy (?!), mistake (?)
// or blunder (??) by the chance it gave away; and the puzzles mined from the game.

import { api } from './api.js';
import { h, s, replaceChildren } from './dom.js';
import { colorName } from './format.js';

const POLL_MS = 1000;
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
// The graph's size in its own units (it scales to its box).
const [WIDTH, HEIGHT] = [600, 120];

export class Review {
  /** For game `id`; `names` names cells as the board does; `seek(ply)` shows a position. */
  constructor(id, names, seek, signedIn) {
    this.id = id;
    this.names = names;
    this.seek = seek;
    this.signedIn = signedIn;
    this.data = null;
    this.puzzles = [];
    this.timer = null;
    this.panel = h('section', { class: 'review', 'aria-labelledby': 'review-title', hidden: true },
      h('h2', { id: 'review-title' }, 'Analysis'));
    this.body = h('div', { class: 'review-body', 'aria-live': 'polite' });
    this.panel.append(this.body);
    this.graph = h('div', { class: 'eval-graph-box', hidden: true });
    this.onChange = () => {};
  }

  /** Shows the review of a finished game (asked for once). */
  async open() {
    if (!this.panel.hidden) return;
    this.panel.hidden = false;
    await this.load();
  }

  dispose() {
    clearTimeout(this.timer);
  }

  async load(ask = false) {
    clearTimeout(this.timer);
    try {
      [this.data, this.puzzles] = await Promise.all([
        ask ? api.requestReview(this.id) : api.review(this.id), api.gamePuzzles(this.id)]);
    } catch (err) {
      replaceChildren(this.body, h('p', { class: 'error' }, `No analysis: ${err.message}`));
      return;
    }
    if (this.data.status === 'running') this.timer = setTimeout(() => this.load(), POLL_MS);
    this.onChange();
  }

  /** The judgement of move `ply` (1 for the first), if reviewed. */
  judgement(ply) {
    const move = this.data && this.data.moves[ply - 1];
    return move ? move.judgement : null;
  }

  mark(ply) {
    return MARKS[this.judgement(ply)] || '';
  }

  /** Redraws the panel and the graph for the position after `ply` moves. */
  show(ply) {
    const d = this.data;
    if (!d) return;
    const ask = h('button', { type: 'button', class: 'request-review primary', onclick: () => this.load(true) }, 'Request analysis');
    const parts = [];
    if (d.status === 'none' || d.status === 'failed') {
      parts.push(h('p', null, d.status === 'failed' ? 'The analysis stopped before its end.' : 'The house engine can analyse this game: a search of every position, each move judged by the chance to win it gave away.'));
      parts.push(this.signedIn ? ask : h('p', null, 'Choose a name in the lobby to ask for one.'));
    }
    if (d.status === 'running') {
      parts.push(h('label', { for: 'review-progress' }, `Analysing: ${d.done} of ${d.total} positions`),
        h('progress', { id: 'review-progress', max: d.total, value: d.done }));
    }
    const here = d.positions[ply];
    if (here) {
      parts.push(h('p', { class: 'review-here' }, `After move ${ply}: black's chance ${percent(here.black)}.`,
        here.best ? [' The engine plays ', h('strong', null, this.names.label(here.best)),
          here.line.length > 1 ? `, then ${here.line.slice(1, 6).map((m) => this.names.label(m)).join(' ')}` : '', '.'] : ''));
    }
    const move = d.moves[ply - 1];
    if (move && move.judgement) {
      const before = d.positions[ply - 1];
      const chance = (p) => (move.color === 'black' ? p.black : 1 - p.black);
      parts.push(h('p', { class: `review-judgement ${move.judgement}` },
        `Move ${ply}, ${colorName(move.color)} ${this.names.label(move.move)}, was ${article(move.judgement)} ${move.judgement}: `,
        `${colorName(move.color)}'s chance went from ${percent(chance(before))} to ${percent(chance(here))}.`));
    }
    const counts = (color) => ['inaccuracy', 'mistake', 'blunder']
      .map((j) => `${d.moves.filter((m) => m.color === color && m.judgement === j).length} ${j === 'inaccuracy' ? 'inaccuracies' : `${j}s`}`).join(', ');
    if (d.status === 'done') parts.push(h('p', { class: 'review-counts' }, `Black: ${counts('black')}. White: ${counts('white')}.`));
    if (this.puzzles.length) {
      parts.push(h('p', { class: 'game-puzzles' }, 'Puzzles from this game: ', ...this.puzzles.flatMap((p, i) => [
        i ? ', ' : '', h('a', { href: `/puzzles/${encodeURIComponent(p.id)}` }, `after move ${p.ply} (${p.goal === 'win' ? 'a win' : 'a save'})`)]), '.'));
    }
    replaceChildren(this.body, ...parts);
    this.drawGraph(ply);
  }

  // Black's chance after each move as a line over the game; marks on judged moves.
  drawGraph(ply) {
    const d = this.data;
    this.graph.hidden = !d || d.positions.length < 2;
    if (this.graph.hidden) return;
    const n = Math.max(1, d.total - 1);
    const x = (i) => (i / n) * WIDTH;
    const y = (black) => (1 - black) * HEIGHT;
    const line = d.positions.map((p, i) => `${x(i).toFixed(1)},${y(p.black).toFixed(1)}`).join(' ');
    const svg = s('svg', {
      class: 'eval-graph', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none',
      role: 'img', 'aria-label': `Black's chance to win after each move, ${d.positions.length} positions`,
      dataset: { points: String(d.positions.length) },
    },
    s('rect', { class: 'eval-white', x: 0, y: 0, width: WIDTH, height: HEIGHT }),
    s('polygon', { class: 'eval-black', points: `0,${HEIGHT} ${line} ${x(d.positions.length - 1).toFixed(1)},${HEIGHT}` }),
    s('line', { class: 'eval-half', x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2 }),
    s('line', { class: 'eval-now', x1: x(ply), y1: 0, x2: x(ply), y2: HEIGHT }),
    ...d.moves.filter((m) => m.judgement).map((m) => s('circle', {
      class: `eval-mark ${m.judgement}`, cx: x(m.ply), cy: y(d.positions[m.ply].black), r: 5,
    })));
    // A click goes to the move under it.
    svg.addEventListener('click', (event) => {
      const box = svg.getBoundingClientRect();
      this.seek(Math.round(((event.clientX - box.left) / box.width) * n));
    });
    replaceChildren(this.graph, svg);
  }
}

function percent(chance) {
  return `${Math.round(chance * 100)}%`;
}

function article(word) {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
