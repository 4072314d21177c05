// The SVG board: cells placed by `Geometry`, ghost copies across the seams, stones with
// animated captures and turnovers, the last move, the decisive cells, a heat map, and a faint
// stone on the legal cell under the pointer. It knows nothing of the server.

import { starPoints } from './coords.js';
import { s } from './dom.js';

const STONE_R = 0.46;
const LABEL_GAP = 0.85; // the band for the coordinates
const ARROW_GAP = 0.7; // the band for the seam arrows


export class BoardView {
  /**
   * `geometry`: where cells go. `onPick(name)`: a legal cell was chosen (a click, or a second
   * tap on the same cell with a finger, so that a stray touch never plays). Options: `names`
   * (a `CellNames`: the labels players read; on a Go board it also brings the star points),
   * `onRefuse(name)` (a cell that may not be played now was clicked), `onCursor(name)` (the
   * keyboard cursor moved to a cell).
   */
  constructor(geometry, onPick, { names = null, onRefuse = () => {}, onCursor = () => {} } = {}) {
    this.geometry = geometry;
    this.onPick = onPick;
    this.onRefuse = onRefuse;
    this.onCursor = onCursor;
    this.cursor = null; // the keyboard's cell (an index), once the board has had the focus
    this.names = names;
    this.stars = names && names.go && geometry.lattice === 'square' ? starPoints(geometry.width, geometry.height) : [];
    this.ghosts = geometry.wraps;
    this.state = null;
    this.hovered = null;
    this.selected = null;
    this.pointerType = 'mouse';
    this.svg = s('svg', {
      class: `board lattice-${geometry.lattice} surface-${geometry.surface}`,
      role: 'application',
      'aria-roledescription': 'board',
      'aria-label': 'Board: the arrow keys move a cursor, Enter or Space plays there',
      tabindex: 0,
    });
    // The cursor is the keyboard's: focus by Tab shows it, a click hides it (a click that
    // focuses the board leaves the arrow keys to the replay until ↑ or ↓ asks for it).
    this.svg.addEventListener('pointerdown', () => {
      this.clicked = true;
      this.hideCursor();
    }, { capture: true });
    this.svg.addEventListener('focus', () => {
      if (!this.clicked) this.moveCursor(0, 0);
      this.clicked = false;
    });
    this.svg.addEventListener('keydown', (e) => this.key(e));
    this.layout();
  }

  /** Shows or hides the ghost copies of the cells across the seams. */
  setGhosts(on) {
    this.ghosts = on;
    this.layout();
    if (this.state) this.render({ ...this.state, previous: null });
  }

  // The parts that do not change between positions.
  layout() {
    const g = this.geometry;
    this.places = g.places(this.ghosts);
    this.placesOf = g.cells.map(() => []);
    for (const p of this.places) this.placesOf[p.index].push(p);
    const layer = (name) => s('g', { class: name });
    this.layers = {
      backdrop: layer('backdrop'),
      grid: layer('grid'),
      seams: layer('seams'),
      labels: layer('labels'),
      heat: layer('heat'),
      stones: layer('stones'),
      territory: layer('territory'),
      highlight: layer('highlight'),
      marks: layer('marks'),
      preview: layer('preview'),
      cursor: layer('cursor'),
      hits: layer('hits'),
    };
    this.frame = this.measure();
    this.drawGrid();
    this.drawSeams();
    this.drawLabels();
    this.drawHits();
    this.drawCursor();
    this.svg.replaceChildren(defs(), ...Object.values(this.layers));
    const { left, top, right, bottom } = this.frame.view;
    const box = { x: left, y: top, width: right - left, height: bottom - top };
    this.svg.setAttribute('viewBox', [box.x, box.y, box.width, box.height].map((v) => v.toFixed(3)).join(' '));
    this.layers.backdrop.replaceChildren(s('rect', { ...box, rx: 0.3 }));
  }

  // The cells' extent, and around it a band for the coordinates and, on glued surfaces, one
  // for the arrows that say how the sides are glued.
  measure() {
    const xs = this.places.map((p) => p.cx);
    const ys = this.places.map((p) => p.cy);
    const pad = 0.62;
    const cells = { left: Math.min(...xs) - pad, top: Math.min(...ys) - pad, right: Math.max(...xs) + pad, bottom: Math.max(...ys) + pad };
    const before = LABEL_GAP + (this.geometry.seams ? ARROW_GAP : 0);
    const after = this.geometry.seams ? ARROW_GAP : 0.2;
    return {
      cells,
      view: { left: cells.left - before, top: cells.top - before, right: cells.right + after, bottom: cells.bottom + after },
    };
  }

  drawGrid() {
    const g = this.geometry;
    const grid = this.layers.grid;
    if (g.lattice !== 'square') {
      for (const p of this.places) {
        const checker = !g.hex && Math.abs(p.x + p.y) % 2 === 1 ? ' alt' : '';
        grid.append(s('polygon', { class: `tile${p.ghost ? ' ghost' : ''}${checker}`, points: g.outline(p.cx, p.cy) }));
      }
      return;
    }
    // Go-style lines through the points; a line leaving the board across a seam runs to the
    // ghost copy, or without ghosts a short stub says that it goes on.
    const at = new Map(this.places.map((p) => [p.x + ',' + p.y, p]));
    for (const [x, y] of this.stars) {
      const [cx, cy] = g.center(x, y);
      grid.append(s('circle', { class: 'star', cx, cy, r: 0.09 }));
    }
    for (const p of this.places) {
      for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
        const q = at.get(p.x + dx + ',' + (p.y + dy));
        if (q && (dx > 0 || dy > 0)) {
          grid.append(line(p.cx, p.cy, q.cx, q.cy, p.ghost || q.ghost ? 'line ghost' : 'line'));
        } else if (!q && !p.ghost && g.cellAt(p.x + dx, p.y + dy) !== undefined) {
          grid.append(line(p.cx, p.cy, p.cx + dx * 0.5, p.cy + dy * 0.5, 'line stub'));
        }
      }
    }
  }

  // The glued sides of the board, one colour per pair, and beside the board an arrow along
  // each: equal arrows on opposite sides are glued straight, opposite ones in reverse.
  drawSeams() {
    const g = this.geometry;
    // The arrows of each glued side (from the server's topology): equal arrows on opposite
    // sides are glued straight, opposite ones in reverse.
    const sides = g.seams;
    if (!sides) return;
    const box = g.seamBox();
    const { cells } = this.frame;
    const [near, far] = [ARROW_GAP * 0.45, LABEL_GAP + ARROW_GAP * 0.55];
    const ends = {
      top: [box.left, cells.top - far, box.right, cells.top - far],
      bottom: [box.left, cells.bottom + near, box.right, cells.bottom + near],
      left: [cells.left - far, box.top, cells.left - far, box.bottom],
      right: [cells.right + near, box.top, cells.right + near, box.bottom],
    };
    const path = (seam) => g.seamSides().filter((side) => side.seam === seam)
      .map(({ x1, y1, x2, y2 }) => `M${x1.toFixed(3)},${y1.toFixed(3)}L${x2.toFixed(3)},${y2.toFixed(3)}`).join('');
    for (const [seam, pair, names] of [['tb', 'top and bottom', ['top', 'bottom']], ['lr', 'left and right', ['left', 'right']]]) {
      if (!names.some((n) => sides[n])) continue;
      const glue = sides[names[1]] < 0 ? 'glued in reverse (the arrows point opposite ways)' : 'glued straight';
      const arrows = names.map((n) => {
        let [x1, y1, x2, y2] = ends[n];
        if (sides[n] < 0) [x1, y1, x2, y2] = [x2, y2, x1, y1];
        // One chevron on the top/bottom pair, two on the left/right pair, as in the usual
        // drawing of a glued square.
        return s('g', { class: 'seam-arrow' }, line(x1, y1, x2, y2, 'seam-shaft'), chevrons(x1, y1, x2, y2, seam === 'tb' ? 1 : 2));
      });
      this.layers.seams.append(s('g', { class: `seam seam-${seam}` },
        s('title', null, `seam: the ${pair} edges are ${glue}`),
        s('path', { class: 'seam-line', d: path(seam) }), ...arrows));
    }
  }

  drawLabels() {
    const g = this.geometry;
    const { cells } = this.frame;
    const go = this.names && this.names.go;
    for (let x = 0; x < g.width; x++) {
      const [cx] = g.center(x, 0);
      const label = go ? this.names.column(x) : g.names[g.indexAt.get(x + ',0')][0];
      this.layers.labels.append(s('text', { x: cx, y: cells.top - LABEL_GAP / 2, class: 'coord' }, label));
    }
    for (let y = 0; y < g.height; y++) {
      const [, cy] = g.center(0, y);
      const label = go ? this.names.row(y) : g.names[g.indexAt.get('0,' + y)][1];
      this.layers.labels.append(s('text', { x: cells.left - LABEL_GAP / 2, y: cy, class: 'coord' }, label));
    }
  }

  drawHits() {
    this.hits = [];
    for (const p of this.places) {
      const name = this.geometry.names[p.index];
      const hit = s('polygon', {
        class: 'hit',
        points: this.geometry.outline(p.cx, p.cy),
        dataset: { name, ghost: p.ghost ? '1' : '0', at: `${p.x},${p.y}` },
      }, s('title', null, p.ghost ? `${this.label(name)} (across the seam)` : this.label(name)));
      hit.addEventListener('pointerdown', (e) => { this.pointerType = e.pointerType; });
      hit.addEventListener('pointerenter', (e) => {
        if (e.pointerType === 'mouse' || e.pointerType === 'pen') this.hover(p.index);
      });
      hit.addEventListener('pointerleave', () => this.hover(null));
      hit.addEventListener('click', () => this.pick(p.index));
      this.layers.hits.append(hit);
      this.hits.push([hit, name]);
    }
  }

  // Arrows move the cursor a cell (wrapping at the edges, as the surfaces do in one way or
  // another); Enter and Space play it as a click would.
  key(event) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const sideways = event.key === 'ArrowLeft' || event.key === 'ArrowRight';
    if (steps[event.key] && this.cursor === null && sideways) {
      return; // no cursor yet: ← and → step through the moves (the page's keys)
    } else if (steps[event.key] && this.cursor === null) {
      this.moveCursor(0, 0);
    } else if (steps[event.key]) {
      this.moveCursor(...steps[event.key]);
    } else if ((event.key === 'Enter' || event.key === ' ') && this.cursor !== null) {
      this.pointerType = 'keyboard';
      this.pick(this.cursor);
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  moveCursor(dx, dy) {
    const g = this.geometry;
    if (this.cursor === null) {
      // First the last move's cell, else the middle of the board.
      const middle = g.indexAt.get(`${Math.floor(g.width / 2)},${Math.floor(g.height / 2)}`);
      const last = this.state ? this.state.last : [];
      this.cursor = last.length ? last[last.length - 1] : middle ?? 0;
    } else {
      const [x, y] = g.cells[this.cursor];
      for (let k = 1; k <= Math.max(g.width, g.height); k++) {
        const [nx, ny] = [(x + k * dx + g.width) % g.width, (y + k * dy + g.height) % g.height];
        const next = g.indexAt.get(`${nx},${ny}`);
        if (next !== undefined) {
          this.cursor = next;
          break;
        }
      }
    }
    this.hovered = this.legal(this.cursor) ? this.cursor : null;
    this.drawPreview();
    this.drawCursor();
    this.onCursor(g.names[this.cursor]);
  }

  hideCursor() {
    if (this.cursor === null) return;
    this.cursor = null;
    this.drawCursor();
  }

  drawCursor() {
    const layer = this.layers.cursor;
    layer.replaceChildren();
    if (this.cursor === null) return;
    for (const p of this.placesOf[this.cursor]) {
      if (!p.ghost) layer.append(s('polygon', { class: 'cursor', points: this.geometry.outline(p.cx, p.cy) }));
    }
  }

  label(name) {
    return this.names ? this.names.label(name) : name;
  }

  legal(index) {
    return index !== null && this.state && this.state.legal && this.state.legal.has(this.geometry.names[index]);
  }

  hover(index) {
    this.hovered = this.legal(index) ? index : null;
    this.drawPreview();
  }

  pick(index) {
    if (!this.legal(index)) {
      this.onRefuse(this.geometry.names[index]);
      return;
    }
    if (this.pointerType === 'touch' && this.selected !== index) {
      this.selected = index;
      this.drawPreview();
      return;
    }
    this.selected = null;
    this.hovered = null;
    this.drawPreview();
    this.onPick(this.geometry.names[index]);
  }

  drawPreview() {
    const layer = this.layers.preview;
    layer.replaceChildren();
    const index = this.selected ?? this.hovered;
    // Marking dead stones: the stone is there already.
    if (index === null || !this.legal(index) || this.state.marking) return;
    for (const p of this.placesOf[index]) {
      layer.append(s('circle', { class: `stone ${this.state.toMove} preview${p.ghost ? ' ghost' : ''}`, cx: p.cx, cy: p.cy, r: STONE_R }));
    }
  }

  /**
   * Shows a position. `board`: stones by cell index ('b', 'w', '.'); `previous`: the board
   * shown before, to animate what changed (null: nothing to animate; the same array: the
   * stones have not changed); `last`: the indices of the last turn's placements (two in a
   * CTOR turn, none after a pass); `highlight`: decisive cell indices; `legal`: a Set of the moves the viewer may
   * click now (null: none); `toMove`: 'b' or 'w' for the hover stone; `heat`: visits by
   * cell index or null; `territory`: the owner of each cell by index ('b', 'w', '.') to mark
   * at the end of a Go game, or null; `marking`: the cells to click are stones to mark dead
   * (no hover stone).
   */
  render(state) {
    this.state = state;
    const { board, previous, last, highlight, heat, territory } = state;
    this.svg.dataset.board = this.boardRows(board);
    this.drawHeat(heat);
    this.drawHighlight(highlight);
    this.drawTerritory(territory);
    // The same board again (a clock, a toggle): the stones stay, and so do their animations.
    if (previous !== board) this.drawStones(board, previous);
    this.layers.marks.replaceChildren(...last.flatMap((cell) => this.placesOf[cell].map((p) =>
      s('circle', { class: `last-move on-${board[cell]}${p.ghost ? ' ghost' : ''}`, cx: p.cx, cy: p.cy, r: 0.16 }))));
    if (this.selected !== null && !this.legal(this.selected)) this.selected = null;
    this.drawPreview();
    const legal = state.legal || new Set();
    for (const [hit, name] of this.hits) hit.classList.toggle('legal', legal.has(name));
    this.svg.classList.toggle('interactive', legal.size > 0);
  }

  drawStones(board, previous) {
    const stones = this.layers.stones;
    stones.replaceChildren();
    for (const p of this.places) {
      const stone = board[p.index];
      const before = previous ? previous[p.index] : stone;
      const ghost = p.ghost ? ' ghost' : '';
      if (stone !== '.') {
        let change = '';
        if (before === '.') change = ' placed';
        else if (before !== stone) change = ` flipped flip-to-${stone}`;
        stones.append(s('circle', { class: `stone ${stone}${ghost}${change}`, cx: p.cx, cy: p.cy, r: STONE_R }));
      } else if (before !== '.') {
        // It fades out and stays, invisible, until the next position replaces the layer.
        stones.append(s('circle', { class: `stone ${before}${ghost} captured`, cx: p.cx, cy: p.cy, r: STONE_R }));
      }
    }
  }

  // The board as rows joined by '/', the same letters as GameView.board (for tests and
  // anyone inspecting the page).
  boardRows(board) {
    const g = this.geometry;
    const rows = Array.from({ length: g.height }, () => Array(g.width).fill('.'));
    g.cells.forEach(([x, y], i) => { rows[y][x] = board[i]; });
    return rows.map((r) => r.join('')).join('/');
  }

  drawHeat(heat) {
    const layer = this.layers.heat;
    layer.replaceChildren();
    if (!heat) return;
    const most = Math.max(0, ...heat);
    if (most === 0) return;
    for (const p of this.places) {
      const visits = heat[p.index] || 0;
      if (visits === 0) continue;
      // The square root spreads the colours: searches give most visits to a few moves.
      const share = Math.sqrt(visits / most);
      layer.append(s('polygon', {
        class: `heat-cell${p.ghost ? ' ghost' : ''}`,
        points: this.geometry.outline(p.cx, p.cy),
        'fill-opacity': (0.08 + 0.72 * share).toFixed(3),
        dataset: { visits },
      }));
    }
  }

  // A small square of the owner's colour on each point of territory.
  drawTerritory(territory) {
    const layer = this.layers.territory;
    layer.replaceChildren();
    if (!territory) return;
    const side = 0.3;
    for (const p of this.places) {
      const owner = territory[p.index];
      if (owner !== 'b' && owner !== 'w') continue;
      layer.append(s('rect', {
        class: `territory ${owner}${p.ghost ? ' ghost' : ''}`,
        x: p.cx - side / 2, y: p.cy - side / 2, width: side, height: side,
      }));
    }
    this.svg.dataset.territory = territory.filter((o) => o === 'b').length + ',' + territory.filter((o) => o === 'w').length;
  }

  /** The board's width in cells (with its margins), to size it on screen. */
  unitsWide() {
    const { left, right } = this.frame.view;
    return right - left;
  }

  // Decisive cells get a ring and a dot; consecutive ones (a loop is listed in order) are
  // joined where they are drawn side by side, across the seams too when ghosts are shown.
  drawHighlight(highlight) {
    const layer = this.layers.highlight;
    layer.replaceChildren();
    if (!highlight || highlight.length === 0) return;
    const steps = highlight.length > 2 ? highlight.length : highlight.length - 1;
    for (let i = 0; i < steps; i++) {
      const a = highlight[i];
      const b = highlight[(i + 1) % highlight.length];
      for (const p of this.placesOf[a]) {
        for (const q of this.placesOf[b]) {
          if ((p.ghost && q.ghost) || Math.hypot(p.cx - q.cx, p.cy - q.cy) > 1.01) continue;
          layer.append(line(p.cx, p.cy, q.cx, q.cy, 'win-link'));
        }
      }
    }
    for (const index of highlight) {
      for (const p of this.placesOf[index]) {
        const ghost = p.ghost ? ' ghost' : '';
        layer.append(s('circle', { class: `win-cell${ghost}`, cx: p.cx, cy: p.cy, r: STONE_R + 0.02 }),
          s('circle', { class: `win-dot${ghost}`, cx: p.cx, cy: p.cy, r: 0.1 }));
      }
    }
  }
}

function line(x1, y1, x2, y2, cls) {
  return s('line', { x1, y1, x2, y2, class: cls });
}

// `count` chevrons in the middle of the segment, pointing from its first end to its second.
function chevrons(x1, y1, x2, y2, count) {
  const length = Math.hypot(x2 - x1, y2 - y1);
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
  const size = 0.28;
  const parts = [];
  for (let k = 0; k < count; k++) {
    const shift = (k - (count - 1) / 2) * size * 1.1;
    const [tx, ty] = [mx + ux * (shift + size / 2), my + uy * (shift + size / 2)];
    const [bx, by] = [tx - ux * size, ty - uy * size];
    parts.push(`M${(bx - uy * size).toFixed(3)},${(by + ux * size).toFixed(3)} L${tx.toFixed(3)},${ty.toFixed(3)} L${(bx + uy * size).toFixed(3)},${(by - ux * size).toFixed(3)}`);
  }
  return s('path', { class: 'seam-chevron', d: parts.join(' ') });
}

function defs() {
  const gradient = (id, inner, outer) =>
    s('radialGradient', { id, cx: '0.35', cy: '0.3', r: '0.75' },
      s('stop', { offset: '0', 'stop-color': inner }),
      s('stop', { offset: '1', 'stop-color': outer }));
  return s('defs', null, gradient('stone-b', '#5d6166', '#0e0f11'), gradient('stone-w', '#ffffff', '#c9ccd1'));
}
