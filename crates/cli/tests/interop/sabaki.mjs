// Third-party JavaScript libraries against toroid (crates/cli/tests/records_interop.rs):
//   node sabaki.mjs parse FILE...   @sabaki/sgf parses each record: one JSON line per file
//                                   with its GM and its main line's moves (or the error)
//   node sabaki.mjs gtp TOROID      @sabaki/gtp's Controller drives `TOROID gtp` through a
//                                   7×7 game; one JSON line with what happened
// Run with NODE_PATH naming the node_modules that scripts/test installs.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const sgf = require('@sabaki/sgf');
const { Controller } = require('@sabaki/gtp');

function mainLine(root) {
  const moves = [];
  for (let node = root.children[0]; node; node = node.children[0]) {
    for (const colour of ['B', 'W']) {
      if (node.data[colour]) moves.push(node.data[colour][0]);
    }
  }
  return moves;
}

async function parse(files) {
  for (const file of files) {
    try {
      const [root] = sgf.parse(readFileSync(file, 'utf8'));
      const gm = (root.data.GM || ['1'])[0];
      console.log(JSON.stringify({ file, gm, moves: mainLine(root) }));
    } catch (error) {
      console.log(JSON.stringify({ file, error: String(error) }));
    }
  }
}

async function gtp(toroid) {
  const controller = new Controller(toroid, ['gtp', '--level', 'random', '--seed', '3']);
  controller.start();
  const send = async (name, ...args) => {
    const response = await controller.sendCommand({ name, args });
    if (response.error) throw new Error(`${name} ${args.join(' ')}: ${response.content}`);
    return response.content;
  };
  const report = { name: await send('name'), moves: 0, passes: 0 };
  await send('boardsize', '7');
  await send('clear_board');
  await send('komi', '7.5');
  let passesInARow = 0;
  for (let turn = 0; turn < 200 && passesInARow < 2; turn++) {
    const move = (await send('genmove', turn % 2 === 0 ? 'B' : 'W')).trim().toLowerCase();
    report.moves++;
    passesInARow = move === 'pass' ? passesInARow + 1 : 0;
    if (move === 'pass') report.passes++;
  }
  report.board = await send('showboard');
  report.score = await send('final_score');
  await controller.stop();
  console.log(JSON.stringify(report));
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'parse') await parse(rest);
else if (mode === 'gtp') await gtp(rest[0]);
else { console.error('usage: sabaki.mjs parse FILE... | gtp TOROID'); process.exit(2); }
