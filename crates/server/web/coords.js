// How cells are named to players. Records and protocols always use SGF points (`aa` is the
// top-left cell); on the Go boards (`go`, `capture-go`) the page writes them as Go players
// do: columns A–T without I, rows numbered from the bottom (`aa` on 9×9 is A9).

const GO_COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'; // 25 letters: no I

/** The naming of a game's cells: SGF points, or Go coordinates on the Go boards. */
export class CellNames {
  constructor(game, width, height) {
    this.go = (game === 'go' || game === 'capture-go') && width <= GO_COLUMNS.length;
    this.width = width;
    this.height = height;
  }

  /** The column label of `x` (0 is the left). */
  column(x) {
    return this.go ? GO_COLUMNS[x] : String.fromCharCode(97 + x);
  }

  /** The row label of `y` (0 is the top). */
  row(y) {
    return this.go ? String(this.height - y) : String.fromCharCode(97 + y);
  }

  /** A move as players read it: `cc` → C7 on 9×9; `pass`, `end` and others unchanged. */
  label(move) {
    if (!this.go || !/^[a-z]{2}$/.test(move)) return move;
    const [x, y] = [move.charCodeAt(0) - 97, move.charCodeAt(1) - 97];
    return x < this.width && y < this.height ? this.column(x) + this.row(y) : move;
  }

  /** What a player typed, as the SGF point or word the server takes (`D4`, `d4`, `dd`). */
  parse(text) {
    const typed = text.trim();
    if (!this.go) return typed.toLowerCase();
    const go = /^([A-HJ-Za-hj-z])(\d{1,2})$/.exec(typed);
    if (!go) return typed.toLowerCase();
    const x = GO_COLUMNS.indexOf(go[1].toUpperCase());
    const y = this.height - Number(go[2]);
    if (x < 0 || x >= this.width || y < 0 || y >= this.height) return typed; // the server says why
    return String.fromCharCode(97 + x) + String.fromCharCode(97 + y);
  }

  /** What the move box shows before anything is typed. */
  example() {
    return this.go ? `${this.column(Math.min(3, this.width - 1))}${Math.min(4, this.height)}` : 'cc';
  }
}

/**
 * The star points (hoshi) of a Go board, as [x, y]: the corner points 3 lines in (2 on
 * boards under 12), the centre of an odd board, and the side points of odd boards from 13.
 */
export function starPoints(width, height) {
  if (width !== height || width < 7) return [];
  const n = width;
  const edge = n < 12 ? 2 : 3;
  const lines = [edge, n - 1 - edge];
  const middle = (n - 1) / 2;
  const odd = n % 2 === 1;
  if (odd && n >= 13) lines.splice(1, 0, middle);
  const points = [];
  for (const x of lines) {
    for (const y of lines) points.push([x, y]);
  }
  if (odd && n < 13) points.push([middle, middle]);
  return points;
}
