// Checks the page's replay (web/rebuild.js) against the rules engine: random games of every
// rule set, and after every move the rebuilt board must equal `toroid replay --json`'s.
//
//   node rebuild-check.mjs --toroid PATH/TO/toroid [--games N] [--seed S]

import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Geometry } from '../../web/geometry.js';
import { adjacency, rebuild } from '../../web/rebuild.js';

const { values } = parseArgs({
  options: {
    toroid: { type: 'string' },
    games: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
  },
});
if (!values.toroid) {
  console.error('usage: node rebuild-check.mjs --toroid PATH [--games N] [--seed S]');
  process.exit(2);
}

// Small boards, so that games end and captures and turnovers happen often.
const SETUPS = [
  ['torus', ['size=5']],
  ['torus', ['size=6']],
  ['hex-torus', ['width=4', 'height=4']],
  ['m-torus', ['width=5', 'height=5']],
  ['ctor', ['size=4']],
  ['ctor', ['size=6']],
  ['capture-go', ['size=5', 'target=6']],
  ['capture-go', ['size=5', 'topology=torus', 'target=6']],
  ['go', ['size=5']],
  ['go', ['size=5', 'topology=cylinder']],
  ['go', ['size=4', 'topology=torus']],
];
const MAX_PLIES = 120;

function toroid(args) {
  return JSON.parse(execFileSync(values.toroid, args, { encoding: 'utf8' }));
}

// A small deterministic generator (mulberry32), so a failure can be replayed by its seed.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Games that reach rare cases on purpose: a capture across the corner, a diagonal run closed
// by the placed stone itself after a full cycle, a turnover (docs/rules.md).
const FIXED = [
  ['torus', ['size=5'], 'dd ee aa'],
  ['torus', ['size=5'], 'bc bb cd cc de dd eb ee aa'],
  ['ctor', ['size=5'], 'bb cc end cb db aa ae bc dc'],
];

// Plays `fixed` moves, or random ones when it is null, and compares every ply.
function check(game, params, fixed, next) {
  const paramArgs = params.flatMap((p) => ['-p', p]);
  const topology = toroid(['topology', game, ...paramArgs, '--json']);
  const moves = [];
  let view = toroid(['replay', game, ...paramArgs, '--json']);
  const geometry = new Geometry(view, topology.cells);
  const toIndexed = (rows) => geometry.cells.map(([x, y]) => rows[y][x]);
  const served = [toIndexed(view.board)];
  const wanted = fixed ? fixed.split(' ') : [];
  while (!view.over && (fixed ? moves.length < wanted.length : moves.length < MAX_PLIES)) {
    moves.push(fixed ? wanted[moves.length] : view.legal_moves[Math.floor(next() * view.legal_moves.length)]);
    view = toroid(['replay', game, ...paramArgs, ...moves, '--json']);
    served.push(toIndexed(view.board));
  }
  const boards = rebuild(game, geometry, adjacency(geometry.cells.length, topology.edges), moves);
  const bad = boards.findIndex((board, ply) => board.join('') !== served[ply].join(''));
  if (bad >= 0) {
    console.error(`${game} ${params.join(' ')}: ply ${bad} differs after ${moves.slice(0, bad).join(' ')}`);
    console.error(`  rebuilt ${boards[bad].join('')}\n  engine  ${served[bad].join('')}`);
  }
  return { positions: boards.length, ok: bad < 0 };
}

const next = random(Number(values.seed));
const results = [
  ...FIXED.map(([game, params, moves]) => check(game, params, moves, null)),
  ...SETUPS.flatMap(([game, params]) =>
    Array.from({ length: Number(values.games) }, () => check(game, params, null, next)),
  ),
];
const failures = results.filter((r) => !r.ok).length;
const checked = results.reduce((sum, r) => sum + r.positions, 0);
console.log(`rebuild-check: ${checked} positions compared, ${failures} games differ`);
process.exit(failures ? 1 : 0);
