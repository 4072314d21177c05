// The board after every ply of a game, rebuilt from its move list, so that a finished game
// can be stepped through without asking the server for each position.
//
// Only what changes the stones is repeated here (captures, turnovers, whose move it is); the
// moves are legal already (the server accepted them), so no legality is checked. The last
// position always comes from the server; tests/browser/rebuild-check.mjs compares every ply
// with `toroid replay`.

const other = (stone) => (stone === 'b' ? 'w' : 'b');
const DIAGONALS = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const mod = (a, n) => ((a % n) + n) % n;

/** Neighbour lists by cell index from TopologyView.edges. */
export function adjacency(cellCount, edges) {
  const adj = Array.from({ length: cellCount }, () => []);
  for (const [from, to] of edges) adj[from].push(to);
  return adj;
}

// capture-go and go: enemy chains left without a liberty are removed.
function removeDeadChains(board, cell, { adj }) {
  const enemy = other(board[cell]);
  for (const start of adj[cell]) {
    if (board[start] !== enemy) continue;
    const chain = [start];
    const seen = new Set(chain);
    let free = false;
    for (let i = 0; i < chain.length && !free; i++) {
      for (const n of adj[chain[i]]) {
        if (board[n] === '.') free = true;
        else if (board[n] === enemy && !seen.has(n)) {
          seen.add(n);
          chain.push(n);
        }
      }
    }
    if (!free) for (const c of chain) board[c] = '.';
  }
}

// torus: a surrounded enemy stone ends the game with nothing captured; otherwise runs of
// enemy stones closed by a friendly stone along a wrapping diagonal are captured.
function diagonalCaptures(board, cell, { adj, geometry }) {
  const me = board[cell];
  const enemy = other(me);
  if (adj[cell].some((n) => board[n] === enemy && adj[n].every((m) => board[m] === me))) return;
  const { width, height } = geometry;
  const [x, y] = geometry.cells[cell];
  const captured = [];
  for (const [dx, dy] of DIAGONALS) {
    const run = [];
    // The walk comes back to the placed stone after a full cycle, which then closes the run.
    for (let k = 1; k <= Math.max(width, height); k++) {
      const c = geometry.indexAt.get(mod(x + k * dx, width) + ',' + mod(y + k * dy, height));
      if (board[c] === enemy) {
        run.push(c);
        continue;
      }
      if (board[c] === me) captured.push(...run);
      break;
    }
  }
  for (const c of captured) board[c] = '.';
}

// ctor: enemy stones with five or more of the mover's stones around them turn over, in
// rounds, until none is left.
function turnOvers(board, cell, { adj }) {
  const me = board[cell];
  const enemy = other(me);
  for (;;) {
    const turning = [];
    board.forEach((stone, i) => {
      if (stone === enemy && adj[i].filter((n) => board[n] === me).length >= 5) turning.push(i);
    });
    if (turning.length === 0) return;
    for (const c of turning) board[c] = me;
  }
}

const AFTER_PLACEMENT = {
  torus: diagonalCaptures,
  'capture-go': removeDeadChains,
  go: removeDeadChains,
  ctor: turnOvers,
};

/**
 * Who made each move: players alternate, except in CTOR, where a turn is two placements,
 * or one and `end`, and black's first turn is one placement.
 */
export function movers(game, moves) {
  let mover = 'b';
  let placed = 0;
  return moves.map((move, ply) => {
    const by = mover;
    placed += move === 'end' ? 0 : 1;
    const turnOver = game !== 'ctor' || move === 'end' || placed === 2 || ply === 0;
    if (turnOver) {
      mover = other(mover);
      placed = 0;
    }
    return by;
  });
}

/**
 * The boards (stones by cell index: 'b', 'w', '.') after 0, 1, …, moves.length moves.
 * `geometry` gives the cells, `adj` the neighbour lists.
 */
export function rebuild(game, geometry, adj, moves) {
  const after = AFTER_PLACEMENT[game];
  const context = { adj, geometry };
  const board = geometry.cells.map(() => '.');
  const boards = [board.slice()];
  movers(game, moves).forEach((mover, i) => {
    const cell = geometry.index(moves[i]);
    if (cell !== undefined) {
      board[cell] = mover;
      if (after) after(board, cell, context);
    }
    boards.push(board.slice());
  });
  return boards;
}
