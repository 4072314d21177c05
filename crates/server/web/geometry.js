// Where cells are drawn, what they are called, and which cell each ghost copies.
//
// Units: neighbouring cell centres are 1 apart. Square cells sit at (x, y); hexagonal
// "odd-r" cells are pointy-topped, odd rows shifted half a cell right, rows √3/2 apart
// (docs/rules.md). Cells outside 0..W-1 × 0..H-1 are ghosts: copies of the cells that a step
// across a seam reaches, drawn where the step lands. The page knows no gluing of its own:
// the server's topology gives every step with the cell it reaches.

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const HEX_R = 1 / Math.sqrt(3); // centre to corner
const ROW_STEP = Math.sqrt(3) / 2;

/** The notation of the cell at display (x, y): the letter of x, then of y. */
export function pointName(x, y) {
  return LETTERS[x] + LETTERS[y];
}

/** A point name back to its display [x, y], or null. */
export function parsePoint(name) {
  if (typeof name !== 'string' || name.length !== 2) return null;
  const x = LETTERS.indexOf(name[0]);
  const y = LETTERS.indexOf(name[1]);
  return x < 0 || y < 0 ? null : [x, y];
}

const mod = (a, n) => ((a % n) + n) % n;
const key = (x, y) => x + ',' + y;

// The arrows on a glued pair of edges: equal ones for a straight gluing, opposite ones for
// a reversed one.
const ARROWS = { straight: [1, 1], reversed: [1, -1] };

export class Geometry {
  /**
   * `view`: a GameView (lattice, surface, width, height); `topology`: the TopologyView
   * (cells by index, steps `[from, to, dx, dy]`, gluing).
   */
  constructor(view, topology) {
    this.lattice = view.lattice;
    this.surface = view.surface;
    this.width = view.width;
    this.height = view.height;
    this.hex = view.lattice === 'hex-odd-r';
    this.cells = topology.cells;
    this.indexAt = new Map(this.cells.map(([x, y], i) => [key(x, y), i]));
    this.names = this.cells.map(([x, y]) => pointName(x, y));
    const { left_right: lr, top_bottom: tb } = topology.gluing;
    this.wraps = lr !== 'open' || tb !== 'open';
    // The arrows of each glued side (top, bottom, left, right), or null on the plane.
    this.seams = this.wraps ? {} : null;
    if (tb !== 'open') [this.seams.top, this.seams.bottom] = ARROWS[tb];
    if (lr !== 'open') [this.seams.left, this.seams.right] = ARROWS[lr];
    this.shown = this.ghostLayout(topology.steps, lr !== 'reversed' && tb !== 'reversed');
  }

  /**
   * Which cell is drawn at each position of the board and of the ring around it: every
   * step across a seam from a board cell puts its cell there. On a surface without a
   * reversed gluing, a ghost's own steps fill the ring's corners too (on a hexagonal board
   * only where the ghost's row has its cell's row parity, so that its steps line up).
   */
  ghostLayout(gridSteps, orientable) {
    const shown = new Map(this.indexAt);
    const steps = this.cells.map(() => []);
    for (const [from, to, dx, dy] of gridSteps) steps[from].push([to, dx, dy]);
    const inRing = (x, y) => x >= -1 && y >= -1 && x <= this.width && y <= this.height;
    let frontier = this.cells.map(([x, y], i) => [x, y, i]);
    for (let round = 0; round < (orientable ? 2 : 1); round++) {
      const next = [];
      for (const [x, y, i] of frontier) {
        if (this.hex && mod(y, 2) !== this.cells[i][1] % 2) continue;
        for (const [to, dx, dy] of steps[i]) {
          const [gx, gy] = [x + dx, y + dy];
          if (!inRing(gx, gy) || shown.has(key(gx, gy))) continue;
          shown.set(key(gx, gy), to);
          next.push([gx, gy, to]);
        }
      }
      frontier = next;
    }
    return shown;
  }

  /** The cell index drawn at (x, y), on the board or as a ghost, or undefined. */
  cellAt(x, y) {
    return this.shown.get(key(x, y));
  }

  /** The cell index of a point name, or undefined. */
  index(name) {
    const xy = parsePoint(name);
    return xy ? this.indexAt.get(key(xy[0], xy[1])) : undefined;
  }

  /** Where (x, y) is drawn, for any integers (ghosts too). */
  center(x, y) {
    if (!this.hex) return [x, y];
    return [x + (mod(y, 2) === 1 ? 0.5 : 0), y * ROW_STEP];
  }

  /** The corners of a cell drawn at (cx, cy), clockwise from the top. */
  corners(cx, cy) {
    const offsets = this.hex
      ? [[0, -HEX_R], [0.5, -HEX_R / 2], [0.5, HEX_R / 2], [0, HEX_R], [-0.5, HEX_R / 2], [-0.5, -HEX_R / 2]]
      : [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]];
    return offsets.map(([dx, dy]) => [cx + dx, cy + dy]);
  }

  /** The outline of a cell drawn at (cx, cy), as an SVG `points` list. */
  outline(cx, cy) {
    return this.corners(cx, cy).map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(' ');
  }

  /**
   * The sides of board cells that face a seam: `{x1, y1, x2, y2, seam}` with `seam` 'tb'
   * (the top/bottom seam) or 'lr' (left/right). Hex boards get zig-zags.
   */
  seamSides() {
    const sides = [];
    for (const [x, y] of this.cells) {
      const [cx, cy] = this.center(x, y);
      const corners = this.corners(cx, cy);
      corners.forEach(([x1, y1], k) => {
        const [x2, y2] = corners[(k + 1) % corners.length];
        // The cell across this side is drawn at the centre mirrored through the side.
        const [tx, ty] = [x1 + x2 - cx, y1 + y2 - cy];
        const across = this.nearby(x, y).find(([nx, ny]) => {
          const [px, py] = this.center(nx, ny);
          return Math.abs(px - tx) < 1e-6 && Math.abs(py - ty) < 1e-6;
        });
        if (!across) return;
        const [nx, ny] = across;
        const outside = nx < 0 || ny < 0 || nx >= this.width || ny >= this.height;
        if (outside && this.cellAt(nx, ny) !== undefined) {
          sides.push({ x1, y1, x2, y2, seam: ny < 0 || ny >= this.height ? 'tb' : 'lr' });
        }
      });
    }
    return sides;
  }

  /** The display positions around (x, y), itself excluded. */
  nearby(x, y) {
    const around = [];
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) if (dx || dy) around.push([x + dx, y + dy]);
    }
    return around;
  }

  /**
   * Every place a cell is drawn: the board, and with `ghosts` the ring of positions one step
   * outside it that a seam leads to. Each is `{x, y, cx, cy, index, ghost}`.
   */
  places(ghosts) {
    const ring = ghosts && this.wraps ? 1 : 0;
    const places = [];
    for (let y = -ring; y < this.height + ring; y++) {
      for (let x = -ring; x < this.width + ring; x++) {
        const index = this.cellAt(x, y);
        if (index === undefined) continue;
        const [cx, cy] = this.center(x, y);
        const ghost = x < 0 || y < 0 || x >= this.width || y >= this.height;
        places.push({ x, y, cx, cy, index, ghost });
      }
    }
    return places;
  }

  /** The rectangle between the board's outer cell centres and the ghosts: the seams. */
  seamBox() {
    // Hex rows alternate their offset, so the side seams run between the two zig-zags.
    const side = this.hex ? 0.25 : 0.5;
    const [, bottom] = this.center(0, this.height - 1);
    return {
      left: -side,
      right: this.width - 1 + (this.hex ? 0.5 : 0) + side,
      top: this.hex ? -ROW_STEP / 2 : -0.5,
      bottom: bottom + (this.hex ? ROW_STEP / 2 : 0.5),
    };
  }
}
