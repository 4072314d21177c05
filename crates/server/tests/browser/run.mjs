// Browser tests of the toroid page: playwright-core drives Debian's chromium against a
// running server (`toroid serve`).
//
//   node run.mjs --base http://127.0.0.1:8080 [--out DIR]
//
// Options: --chromium PATH (default $CHROMIUM or /usr/bin/chromium), --level LEVEL (the house
// bot, default random), --moderator NAME:PASSWORD (an account with a role, which the tour and
// the accounts scenario need: `toroid admin create-admin NAME` makes one), --scenario cluster (instead of the tour below: through a load
// balancer in front of several nodes, a person plays Go against a house bot to its end while
// a spectator watches). In the tour, a person signs in, plays hex-torus against a house bot by clicking
// while a second browser spectates, plays Go to the end and replays it from a fresh page,
// accepts an invitation from a third browser, plays by touch in a narrow window, and every
// rule set's board is saved as a screenshot in the output folder (by default a fresh
// temporary folder; a given one is cleared of the screenshots this script writes first, so
// that none can be left from an earlier run). Exit status 0 when every step passed, 1 at the
// first failure (with a screenshot of it) or on any error outside a step, 2 on bad arguments.

import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const { values: opts } = parseArgs({
  options: {
    base: { type: 'string' },
    out: { type: 'string' },
    chromium: { type: 'string', default: process.env.CHROMIUM || '/usr/bin/chromium' },
    level: { type: 'string', default: 'random' },
    scenario: { type: 'string', default: 'tour' },
    moderator: { type: 'string' },
  },
});
const needsModerator = opts.scenario !== 'cluster';
if (!opts.base || !['tour', 'cluster', 'accounts'].includes(opts.scenario)
  || (needsModerator && !/^[^:]+:.+$/.test(opts.moderator || ''))) {
  console.error('usage: node run.mjs --base URL [--out DIR] [--chromium PATH] [--level LEVEL] [--scenario tour|cluster|accounts] [--moderator NAME:PASSWORD (tour, accounts)]');
  process.exit(2);
}

// Anything thrown or rejected that no step reported fails the run, even where it ends the
// script before the summary (the exit code is set at once).
let failures = 0;
function failOutsideSteps(err) {
  failures++;
  process.exitCode = 1;
  console.log(`FAIL outside a step: ${err?.stack || err}`);
}
process.on('unhandledRejection', failOutsideSteps);
process.on('uncaughtException', failOutsideSteps);
// A closed standard output (a reader such as `head` that stopped) ends the run: reporting
// the write error would only write again.
process.stdout.on('error', () => process.exit(1));

// Every step of the scenario runs in every passing run (a step that is skipped fails it).
const ACCOUNT_STEPS = 10;
const STEPS = { cluster: 4, accounts: ACCOUNT_STEPS + 2, tour: 37 + ACCOUNT_STEPS }[opts.scenario];
// axe-core's script, injected into the pages it audits.
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const GAMES = ['torus', 'hex-torus', 'm-torus', 'ctor', 'capture-go', 'go'];
const WAIT = { timeout: 20_000 };
// A cluster behind nginx over HTTPS (scripts/cluster with TOROID_TLS=1) has a certificate
// made for the run, which no authority signed.
const DESKTOP = { viewport: { width: 1280, height: 900 }, ignoreHTTPSErrors: true };

const OUT = opts.out ? resolve(opts.out) : await mkdtemp(join(tmpdir(), 'toroid-browser-'));
await mkdir(OUT, { recursive: true });
// Only this script's own files are removed from a folder it was given.
const SHOTS = /^(board-.*|game-.*|rules-.*|phone-.*|analysis-.*|finished-.*|narrow-.*|failure-.*|leaderboard-.*|player-.*|tournament-.*|sign-up)\.png$/;
for (const name of await readdir(OUT)) {
  if (SHOTS.test(name)) await rm(join(OUT, name));
}
const BASE = opts.base.replace(/\/$/, '');
const browser = await chromium.launch({ executablePath: opts.chromium, args: ['--no-sandbox'] });
const pageErrors = [];
let stepsPassed = 0;

// --- Helpers -----------------------------------------------------------------------------

// Every board a page shows, by game and ply, recorded as it is drawn (for the replay check).
function recordBoards() {
  window.__boards = {};
  new MutationObserver(() => {
    const svg = document.querySelector('svg.board');
    if (!svg || !svg.dataset.ply || location.pathname.indexOf('/game/') !== 0) return;
    const boards = (window.__boards[location.pathname] ||= {});
    boards[svg.dataset.ply] = svg.dataset.board;
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-board', 'data-ply'] });
}

async function newContext(options = DESKTOP) {
  const context = await browser.newContext(options);
  await context.addInitScript(recordBoards);
  context.on('page', (page) => page.on('pageerror', (err) => pageErrors.push(err.message)));
  return context;
}

async function signIn(page, name) {
  await page.goto(BASE + '/');
  await page.fill('#guest-name', name);
  await page.click('form.sign-in button[type=submit]');
  await page.waitForSelector('form.new-game', WAIT);
  await expectText(page, '#who', name);
}

// Creates a game from the lobby form and returns its id once the game page shows.
async function createGame(page, { game, params = {}, opponent = 'house', color = 'black', clock = 'none', rated = false }) {
  await page.goto(BASE + '/');
  await page.waitForSelector('form.new-game', WAIT);
  await page.selectOption('#new-game', game);
  for (const [name, value] of Object.entries(params)) {
    const field = page.locator(`#param-${name}`);
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(String(value));
    else await field.fill(String(value));
  }
  await page.selectOption('#new-clock', clock);
  await page.check(`input[name=opponent][value=${opponent}]`);
  if (opponent === 'house') await page.selectOption('#new-level', opts.level);
  await page.selectOption('#new-color', color);
  if (rated) await page.check('#new-rated');
  await page.click('form.new-game button[type=submit]');
  await page.waitForURL(/\/game\/[^/]+$/, WAIT);
  await page.waitForSelector('svg.board', WAIT);
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
}

const plies = (page) => page.locator('ol.moves button.move').count();
const boardOf = (page) => page.getAttribute('svg.board', 'data-board');

async function waitPlies(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('ol.moves button.move').length >= n, n, WAIT);
}

// Waits until the page lets its player move, or shows a result: 'turn' or 'over'. Two
// passes against a house bot mark dead stones: the player accepts the house's proposal,
// which the house accepts too, and the game is over.
async function turnOrOver(page) {
  await page.waitForSelector('svg.board.interactive, .result:not([hidden])', WAIT);
  if (await page.locator('.offers button.accept-dead').count()) {
    await page.click('.offers button.accept-dead');
    await page.waitForSelector('.result:not([hidden])', WAIT);
  }
  return (await page.locator('.result:not([hidden])').count()) ? 'over' : 'turn';
}

// Clicks a legal cell of the board (the k-th, wrapping around), and waits until the move is
// in the move list.
async function clickLegal(page, k) {
  const before = await plies(page);
  const cells = page.locator('svg.board .hit.legal[data-ghost="0"]');
  const count = await cells.count();
  if (count === 0) throw new Error('no legal cell to click');
  const cell = cells.nth(k % count);
  const name = await cell.getAttribute('data-name');
  await cell.click();
  await waitPlies(page, before + 1);
  return name;
}

// Plays `move` on whichever of `pages` has the move: a click on the cell, or the button.
async function playByHand(pages, move) {
  await Promise.race(pages.map((p) => p.waitForSelector('svg.board.interactive', WAIT)));
  const [mover] = await Promise.all(pages.map(async (p) => ((await p.locator('svg.board.interactive').count()) ? p : null)))
    .then((found) => found.filter(Boolean));
  const before = await plies(mover);
  if (move === 'end') await mover.click('button.end-turn');
  else if (move === 'pass') await mover.click('button.pass');
  else await mover.click(`svg.board .hit[data-name="${move}"][data-ghost="0"]`);
  await Promise.all(pages.map((p) => waitPlies(p, before + 1)));
}

// Opens invite `link` as Bob, who takes the seat of game `id` (choosing his name first if he
// has none); `check` looks at the invitation before that.
async function joinInvite(bob, link, id, check = async () => {}) {
  await bob.goto(link);
  await check();
  // The invitation shows either form once it has loaded (a busy machine is slow to).
  await bob.waitForSelector('#guest-name, .invitation button.join', WAIT);
  if (await bob.locator('#guest-name').count()) {
    await bob.fill('#guest-name', 'bob');
    await bob.click('form.sign-in button[type=submit]');
  } else {
    await bob.click('.invitation button.join');
  }
  await bob.waitForURL(new RegExp(`/game/${id}$`), WAIT);
}

// Every cell of the board (and its labels) lies inside what its scrolling box can show:
// nothing is cut off on the left or at the top, where no scrolling reaches.
async function expectReachable(page, what) {
  const cut = await page.evaluate(() => {
    const box = document.querySelector('.board-scroll');
    const frame = box.getBoundingClientRect();
    const left = frame.left - box.scrollLeft;
    const top = frame.top - box.scrollTop;
    return [...document.querySelectorAll('svg.board .hit, svg.board text')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.left < left - 1 || r.top < top - 1 || r.right > left + box.scrollWidth + 1 || r.bottom > top + box.scrollHeight + 1;
    }).map((el) => el.dataset.name || el.textContent);
  });
  expect(cut.length === 0, `${what}: ${cut.length} cells or labels cannot be scrolled to (${cut.slice(0, 5).join(' ')})`);
}

async function expectText(page, selector, pattern) {
  const re = pattern instanceof RegExp ? pattern : new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  await page.waitForFunction(([sel, src, flags]) => {
    const el = document.querySelector(sel);
    return el && new RegExp(src, flags).test(el.textContent);
  }, [selector, re.source, re.flags], WAIT);
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

async function shot(page, name, selector = '.board-area') {
  await page.waitForTimeout(800); // let animations finish
  await page.locator(selector).screenshot({ path: join(OUT, name) });
}

// Runs axe-core on the page as it is: no violation of impact "serious" or "critical".
async function audit(page, what) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const described = bad.map((v) => `${v.id} ×${v.nodes.length} (${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')})`);
  expect(bad.length === 0, `${what}: ${described.join('; ')}`);
}

/** A failure that `step` has already counted and reported. */
class StepFailed extends Error {}

async function step(name, page, body) {
  const started = Date.now();
  try {
    await body();
    stepsPassed++;
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    failures++;
    // The line of this script that failed, to tell one wait from another.
    const at = String(err?.stack ?? '').split('\n').filter((l) => l.includes('run.mjs:'))
      .map((l) => l.replace(/.*run\.mjs:(\d+).*/, '$1')).join(' < ');
    console.log(`FAIL ${name}: ${String(err?.message ?? err).split('\n')[0]}${at ? ` (run.mjs line ${at})` : ''}`);
    if (page) await page.screenshot({ path: join(OUT, `failure-${name.replace(/\W+/g, '-')}.png`), fullPage: true }).catch(() => {});
    throw new StepFailed(name, { cause: err });
  }
}

// Steps through a finished or live game from a freshly loaded page, where the earlier boards
// are rebuilt from the move list: each must equal the board drawn when it was live, and what
// changed from the ply before must be animated (captured stones fade, turned ones flip).
async function checkReplay(page, id) {
  const live = await page.evaluate((path) => window.__boards[path], `/game/${id}`);
  await page.reload();
  await page.waitForSelector('svg.board', WAIT);
  const last = await plies(page);
  expect(Object.keys(live).length > last / 2, 'too few boards were seen live to compare');
  await page.focus('.ply-slider');
  await page.keyboard.press('Home');
  for (let ply = 0; ply <= last; ply++) {
    await page.waitForFunction((p) => document.querySelector('svg.board').dataset.ply === String(p), ply, WAIT);
    const board = await boardOf(page);
    if (live[ply] !== undefined) expect(board === live[ply], `replayed ply ${ply} differs from the board seen live`);
    if (ply > 0 && live[ply] !== undefined && live[ply - 1] !== undefined) {
      const [was, now] = [live[ply - 1], live[ply]];
      const changed = (test) => [...now].filter((c, i) => test(was[i], c)).length;
      const removed = changed((a, b) => a !== '.' && b === '.');
      const turned = changed((a, b) => a !== '.' && b !== '.' && a !== b && b !== '/');
      const shown = await page.evaluate(() => [
        document.querySelectorAll('svg.board .stone.captured:not(.ghost)').length,
        document.querySelectorAll('svg.board .stone.flipped:not(.ghost)').length,
      ]);
      expect(shown[0] === removed && shown[1] === turned,
        `ply ${ply}: ${removed} captured and ${turned} turned over, but ${shown[0]} and ${shown[1]} animated`);
    }
    await page.keyboard.press('ArrowRight');
  }
}

// Ghosts must copy the cell that the seam leads to: every ghost drawn next to a board cell
// shows one of that cell's neighbours in the server's cell graph (or the cell itself, where
// a step comes back to it next to a corner of the M-Torus).
async function checkGhosts(page, id) {
  const problems = await page.evaluate(async (id) => {
    const { Geometry } = await import('/assets/geometry.js');
    const [state, topology] = await Promise.all([
      fetch(`/api/games/${id}`).then((r) => r.json()),
      fetch(`/api/games/${id}/topology`).then((r) => r.json()),
    ]);
    const g = new Geometry(state.position, topology);
    const neighbours = topology.cells.map(() => new Set());
    for (const [a, b] of topology.edges) neighbours[a].add(b);
    const places = g.places(true);
    const reach = g.lattice === 'square-8' ? Math.SQRT2 + 1e-6 : 1 + 1e-6;
    const bad = [];
    for (const p of places.filter((q) => q.ghost)) {
      for (const c of places.filter((q) => !q.ghost)) {
        if (Math.hypot(p.cx - c.cx, p.cy - c.cy) > reach) continue;
        if (p.index !== c.index && !neighbours[c.index].has(p.index)) {
          bad.push(`ghost (${p.x},${p.y}) shows ${g.names[p.index]}, not a neighbour of ${g.names[c.index]}`);
        }
      }
    }
    return bad;
  }, id);
  expect(problems.length === 0, problems.slice(0, 3).join('; '));
}

// --- The scenario --------------------------------------------------------------------------

// Through a load balancer, every request may reach another node: the page, its WebSocket,
// the moves and the spectator's page.
async function clusterScenario() {
  const page = await (await newContext()).newPage();
  const watcher = await (await newContext()).newPage();
  let id;
  await step('cluster: sign in as a guest; over HTTPS the session cookie is Secure', page, async () => {
    await signIn(page, 'carla');
    const https = BASE.startsWith('https:');
    const name = https ? '__Host-toroid_session' : 'toroid_session';
    const cookie = (await page.context().cookies()).find((c) => c.name === name);
    expect(cookie && cookie.httpOnly, 'an HttpOnly session cookie');
    expect(cookie.secure === https, `the cookie's Secure is ${cookie.secure} on ${BASE}`);
  });
  await step('cluster: start Go against a house bot, a spectator watching', page, async () => {
    id = await createGame(page, { game: 'go', params: { size: 5 } });
    await watcher.goto(`${BASE}/game/${id}`);
    await watcher.waitForSelector('svg.board', WAIT);
  });
  await step('cluster: play to the end; the spectator sees every move and the result', page, async () => {
    for (let k = 0; (await turnOrOver(page)) === 'turn'; k++) {
      expect(k < 200, 'the game does not end');
      if (await page.locator('svg.board .hit.legal[data-ghost="0"]').count()) await clickLegal(page, k * 7);
      else await playByHand([page], 'pass');
    }
    const moves = await plies(page);
    await waitPlies(watcher, moves);
    await watcher.waitForSelector('.result:not([hidden])', WAIT);
    expect(await plies(watcher) === moves, `the spectator saw ${await plies(watcher)} of ${moves} moves`);
    expect(await boardOf(watcher) === await boardOf(page), "the spectator's board differs");
  });
  await step('cluster: no script errors on any page', null, async () => {
    expect(pageErrors.length === 0, pageErrors.join('; '));
  });
}

let hexId;
let goId;
let reviewedGame;
try {
  if (opts.scenario === 'cluster') {
    await clusterScenario();
  } else if (opts.scenario === 'accounts') {
    const page = await (await newContext()).newPage();
    await step('sign in as a guest', page, () => signIn(page, 'alice'));
    await accounts(page);
    await step('no script errors on any page', null, async () => {
      expect(pageErrors.length === 0, pageErrors.join('; '));
    });
  } else {
    await tour();
  }
} catch (err) {
  if (!(err instanceof StepFailed)) failOutsideSteps(err);
} finally {
  await browser.close().catch(failOutsideSteps);
}
if (!failures && stepsPassed !== STEPS) failOutsideSteps(new Error(`${stepsPassed} of ${STEPS} steps ran`));
console.log(failures ? `browser tests: FAILED (screenshots in ${OUT})` : `browser tests: all ${STEPS} steps passed (screenshots in ${OUT})`);
process.exit(failures ? 1 : 0);

async function tour() {
  const alice = await newContext();
  const page = await alice.newPage();
  const watcher = await (await newContext()).newPage();

  await step('a first visit browses the lobby without a name and makes no failing request', page, async () => {
    const failed = [];
    const loads = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      else loads.push(Promise.all([r.body().then((b) => b.length), r.request().sizes().then((z) => z.responseBodySize)]).catch(() => [0, 0]));
    });
    page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
    await page.goto(BASE + '/');
    await page.waitForSelector('.lobby ul.live-games', WAIT);
    // The figures of docs/server.md: what a first visit loads, and when it first paints.
    const sizes = await Promise.all(loads);
    const [bytes, sent] = [0, 1].map((k) => sizes.reduce((sum, z) => sum + z[k], 0) / 1024);
    const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
    console.log(`     first visit: ${sent.toFixed(0)} KB transferred (${bytes.toFixed(0)} KB unpacked) in ${loads.length} responses, first contentful paint ${paint.toFixed(0)} ms`);
    await page.waitForSelector('.lobby form.sign-in #guest-name', WAIT);
    expect(await page.getAttribute('#guest-name', 'maxlength') === '32', "the name field's limit is not the server's (32)");
    // The rules are there for a visitor without a name too.
    const rules = page.locator('.lobby details.rules-help[data-game="m-torus"]');
    await rules.locator('summary').click();
    await rules.locator('.rules-example svg.board .stone').first().waitFor(WAIT);
    const diagram = await rules.locator('.rules-example svg.board').first().boundingBox();
    expect(diagram.width >= 300, `a rules diagram is ${diagram.width}px wide`);
    await page.waitForTimeout(500);
    expect(failed.length === 0, `failing requests: ${failed.join(', ')}`);
    page.removeAllListeners('response');
    page.removeAllListeners('requestfailed');
  });

  await step('sign in as a guest; the focus goes on to quick pairing', page, async () => {
    await signIn(page, 'alice');
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'quick-pairing', null, WAIT);
  });

  await step('rules help: each rule set explained in the lobby, with a diagram the rules drew', page, async () => {
    const words = {
      torus: 'diagonal', 'hex-torus': 'helix', 'm-torus': 'in reverse', ctor: 'Turnovers', 'capture-go': 'across the seams', go: 'Dead stones are not taken off by themselves',
    };
    for (const [game, word] of Object.entries(words)) {
      await page.selectOption('#new-game', game);
      const panel = page.locator(`form.new-game details.rules-help[data-game="${game}"]`);
      await panel.locator('summary').click();
      await panel.locator('.rules-example svg.board .stone').first().waitFor(WAIT);
      await expectText(page, `form.new-game details.rules-help[data-game="${game}"]`, word);
      await panel.screenshot({ path: join(OUT, `rules-${game}.png`) });
    }
    // The ring of the hex-torus example is highlighted, as a finished game's is.
    await page.selectOption('#new-game', 'hex-torus');
    await page.locator('details.rules-help[data-game="hex-torus"] summary').click();
    await page.locator('details.rules-help[data-game="hex-torus"] .win-cell').first().waitFor(WAIT);
  });

  await step('start hex-torus against a house bot', page, async () => {
    hexId = await createGame(page, { game: 'hex-torus', clock: '300+5' });
    await expectText(page, '.status', 'Your move');
    expect(await page.locator('.clock.black.running').count() === 1, "black's clock is not running");
    const before = await page.textContent('.clock.black .time');
    await page.waitForTimeout(1500);
    expect(await page.textContent('.clock.black .time') !== before, "black's clock does not count down");
  });

  await step('a second browser spectates', watcher, async () => {
    await watcher.goto(`${BASE}/game/${hexId}`);
    await watcher.waitForSelector('svg.board', WAIT);
    await expectText(watcher, '.players', 'spectating');
    expect(await watcher.locator('svg.board .hit.legal').count() === 0, 'a spectator can click cells');
    expect(await watcher.locator('.toggle-analysis').isHidden(), 'a spectator is offered analysis of a live game');
  });

  await step('hovering a legal cell shows a faint stone, unlike a ghost', page, async () => {
    await page.locator('svg.board .hit.legal[data-ghost="0"]').first().hover();
    await page.waitForSelector('svg.board .preview .stone', WAIT);
    const dash = await page.evaluate(() => getComputedStyle(document.querySelector('svg.board .preview .stone')).strokeDasharray);
    expect(dash && dash !== 'none', 'the preview stone looks like a ghost stone');
  });

  await step('the tab title says when it is your move; the link state is in words', page, async () => {
    await page.waitForSelector('svg.board.interactive', WAIT);
    await page.waitForFunction(() => document.title.startsWith('Your move'), null, WAIT);
    // A clocked game nobody has begun is aborted after 30 s: the page counts it down.
    await expectText(page, '.first-move', /^Make your first move within (30|[12]\d|\d) s, or the game is aborted without a result\.$/);
    await expectText(page, '.link-text', 'connected');
  });

  await step('play by clicking and see the bot answer', page, async () => {
    for (let k = 0; k < 3; k++) {
      const n = await plies(page);
      const name = await clickLegal(page, 7 * k + 3);
      await waitPlies(page, n + 2);
      const board = await boardOf(page);
      const [x, y] = [name.charCodeAt(0) - 97, name.charCodeAt(1) - 97];
      expect(board.split('/')[y][x] === 'b', `no black stone on ${name}`);
      expect((board.match(/w/g) || []).length === k + 1, 'the bot did not answer');
    }
  });

  await step('a refused move shows the reason and changes nothing', page, async () => {
    const [n, board] = [await plies(page), await boardOf(page)];
    const occupied = await page.locator('ol.moves li button').first().textContent();
    await page.fill('#move-text', occupied);
    await page.click('form.move-entry button[type=submit]');
    await page.waitForFunction(() => document.querySelector('.panel .error').textContent.length > 0, null, WAIT);
    expect(await plies(page) === n && await boardOf(page) === board, 'a refused move changed the game');
  });

  await step('a click that cannot play says why in words; an earlier position offers the way back; moves chime', page, async () => {
    const first = await page.locator('ol.moves li button').first().getAttribute('data-move');
    await page.click(`svg.board .hit[data-name="${first}"][data-ghost="0"]`);
    await expectText(page, '.panel .error', `${first} is taken`);
    await page.locator('ol.moves li button').first().click();
    await expectText(page, '.behind', 'You are looking at move 1 of');
    await page.click(`svg.board .hit[data-ghost="0"]:not([data-name="${first}"])`);
    await expectText(page, '.panel .error', 'earlier position');
    await page.click('.behind button.back-to-game');
    await page.waitForSelector('.behind[hidden]', { state: 'attached', ...WAIT });
    await page.waitForSelector('svg.board.interactive', WAIT);
    const chimes = Number(await page.getAttribute('.toggle-sound', 'data-played'));
    expect(chimes >= 3, `the bot's three moves chimed ${chimes} times`);
  });

  await step('the keyboard plays: a cursor on the board, Enter to play, arrows to step through the moves', page, async () => {
    const n = await plies(page);
    await page.focus('svg.board');
    await page.waitForSelector('svg.board .cursor', WAIT);
    for (let k = 0; k < 60 && !/you can play here/.test(await page.textContent('.cursor-note')); k++) {
      await page.keyboard.press(k % 8 === 7 ? 'ArrowDown' : 'ArrowRight');
    }
    const note = await page.textContent('.cursor-note');
    expect(/you can play here/.test(note), `no playable cell reached: ${note}`);
    await page.keyboard.press('Enter');
    await waitPlies(page, n + 2);
    // A click on the board hides the keyboard's cursor and leaves ←, Home and End to the
    // replay (the board keeps the focus).
    await page.locator('svg.board .hit:not(.legal)[data-ghost="0"]').first().click();
    expect(await page.locator('svg.board polygon.cursor').count() === 0, 'a click left the keyboard cursor on the board');
    await page.keyboard.press('ArrowLeft');
    await expectText(page, '.behind', `You are looking at move ${n + 1} of ${n + 2}`);
    await page.keyboard.press('Home');
    await expectText(page, '.behind', `You are looking at move 0 of ${n + 2}`);
    expect(await page.evaluate(() => document.activeElement.matches('svg.board')), 'the board lost the focus');
    await page.keyboard.press('End');
    await page.waitForSelector('.behind[hidden]', { state: 'attached', ...WAIT });
  });

  await step('the theme follows the system, and the header button changes it', page, async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const dark = await background();
    await page.click('#theme'); // system → dark: no change under a dark system
    await expectText(page, '#theme', 'Theme: dark');
    await page.click('#theme'); // → light
    await expectText(page, '#theme', 'Theme: light');
    expect(await background() !== dark, 'the light theme looks like the dark one');
    await page.reload();
    await expectText(page, '#theme', 'Theme: light');
    await page.click('#theme'); // → system again
    await page.emulateMedia({ colorScheme: 'light' });
  });

  await step('the spectator sees the moves', watcher, async () => {
    await waitPlies(watcher, await plies(page));
    await watcher.waitForFunction((b) => document.querySelector('svg.board').dataset.board === b, await boardOf(page), WAIT);
  });

  await step('analysis shows a heat map', page, async () => {
    await page.check('#toggle-analysis');
    await page.waitForSelector('svg.board .heat-cell', WAIT);
    await expectText(page, '.analysis-panel', 'simulations');
    await shot(page, 'analysis-hex-torus.png');
    await page.uncheck('#toggle-analysis');
    await page.waitForFunction(() => !document.querySelector('svg.board .heat-cell'), null, WAIT);
  });

  await step('ghosts toggle and match the seams', page, async () => {
    const withGhosts = await page.locator('svg.board .hit[data-ghost="1"]').count();
    expect(withGhosts > 0, 'no ghost cells on a torus');
    await expectText(page, '.legend', 'Faded cells are copies');
    await page.uncheck('#toggle-ghosts');
    expect(await page.locator('svg.board .hit[data-ghost="1"]').count() === 0, 'ghosts stay after the toggle');
    expect(!(await page.locator('.legend .ghost-note').isVisible()), 'the legend speaks of faded cells that are not drawn');
    await page.check('#toggle-ghosts');
    await checkGhosts(page, hexId);
  });

  await step('play Go to the end and see the result', page, async () => {
    const id = await createGame(page, { game: 'go', params: { size: 5 } });
    // Go coordinates: columns A–E, rows 5 to 1 from the top; the move box takes them too.
    const labels = await page.locator('svg.board .labels text').allTextContents();
    expect(labels.join(' ') === 'A B C D E 5 4 3 2 1', `coordinates ${labels.join(' ')}`);
    await page.fill('#move-text', 'C3');
    await page.click('form.move-entry button[type=submit]');
    await waitPlies(page, 1);
    const firstMove = page.locator('ol.moves li button').first();
    expect(await firstMove.getAttribute('data-move') === 'cc' && await firstMove.textContent() === 'C3', 'C3 is not the centre');
    let placed = 1;
    for (let turns = 0; turns < 100 && (await turnOrOver(page)) === 'turn'; turns++) {
      const before = await plies(page);
      // A few stones, then passes until the bot passes too or the move limit comes.
      if (placed < 4 && (await page.locator('svg.board .hit.legal').count()) > 0) {
        await clickLegal(page, 5 * placed + 2);
        placed++;
      } else {
        await page.click('button.pass');
        await waitPlies(page, before + 1);
      }
      // Wait for the bot's answer, or the end.
      await page.waitForFunction((n) => document.querySelectorAll('ol.moves button.move').length > n
        || !document.querySelector('.result').hidden || document.querySelector('.offers button.accept-dead'), before + 1, WAIT);
    }
    await expectText(page, '.result', /wins|draw/);
    await expectText(page, '.score', /Final score: black [\d.]+, white [\d.]+/);
    await expectText(page, '.result', /^(You won|You lost|Draw) — /);
    const moveNames = await page.locator('ol.moves li button').allTextContents();
    expect(moveNames.every((m) => /^([A-HJ-T]\d{1,2}|pass)$/.test(m)), `moves as written: ${moveNames.join(' ')}`);
    expect(await page.locator('button.pass:visible, button.resign:visible').count() === 0, 'buttons stay after the end');
    await shot(page, 'finished-go.png', '.game');
    const sgf = await page.request.get(BASE + (await page.getAttribute('a.sgf', 'href')));
    expect(sgf.ok() && (await sgf.text()).trimStart().startsWith('('), 'the SGF link does not give a record');

    await checkReplay(page, id);
    goId = id;
  });

  await step('replay tells the truth: score and clocks follow the ply, a step back animates nothing', page, async () => {
    await page.goto(`${BASE}/game/${goId}`);
    await page.waitForSelector('.result:not([hidden])', WAIT);
    await page.click('h1.game-title');
    await page.keyboard.press('Home');
    await expectText(page, '.score', 'Score after move 0, every stone alive (area, komi to white): black 0, white 7.5');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expectText(page, '.score', 'Score after move 2');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('svg.board').dataset.ply === '1', null, WAIT);
    expect(await page.locator('svg.board .stone.captured, svg.board .stone.placed').count() === 0, 'a step back animated a change');
    // The clocks of a clocked game as they were after the move shown, stopped.
    await page.goto(`${BASE}/game/${hexId}`);
    await page.waitForSelector('svg.board', WAIT);
    await page.click('h1.game-title');
    await page.keyboard.press('Home');
    await expectText(page, '.clock.black .time', '5:00');
    await expectText(page, '.clock.white .time', '5:00');
    expect(await page.locator('.clock.running').count() === 0, 'a clock runs in an earlier position');
    await page.keyboard.press('End');
  });

  await step('after the game: New game, the lobby, and a rematch at once with the colours swapped', page, async () => {
    await page.goto(`${BASE}/game/${goId}`);
    await page.waitForSelector('.after-game:not([hidden]) button.rematch', WAIT);
    expect(await page.getAttribute('.after-game a >> text=New game', 'href') === '/?game=go', 'New game does not keep the rule set');
    await page.click('.after-game button.rematch');
    await page.waitForURL((url) => url.pathname.startsWith('/game/') && !url.pathname.endsWith(goId), WAIT);
    await expectText(page, '.you', 'you play white');
    expect(await page.textContent('h1.game-title') === 'go 5×5', 'the rematch is not the same game');
  });

  // The auditor is the player in a browser that lets axe's script in past the page's CSP.
  const auditor = await (await newContext({ ...DESKTOP, bypassCSP: true, storageState: await alice.storageState() })).newPage();
  await step('accessibility: axe-core finds nothing serious on the lobby, a live game and a finished game', auditor, async () => {
    await auditor.goto(BASE + '/');
    await auditor.waitForSelector('ul.finished-games li[data-id]', WAIT);
    await audit(auditor, 'the lobby');
    await auditor.goto(`${BASE}/game/${hexId}`);
    await auditor.waitForSelector('svg.board.interactive', WAIT);
    await audit(auditor, 'a live game');
    await auditor.goto(`${BASE}/game/${goId}`);
    await auditor.waitForSelector('.result:not([hidden])', WAIT);
    await audit(auditor, 'a finished game');
    await auditor.emulateMedia({ colorScheme: 'dark' });
    await audit(auditor, 'a finished game in dark mode');
    await auditor.goto(BASE + '/');
    await auditor.waitForSelector('ul.finished-games li[data-id]', WAIT);
    await audit(auditor, 'the lobby in dark mode');
    await auditor.locator('form.new-game details.rules-help summary').click();
    await auditor.locator('form.new-game .rules-example svg.board').first().waitFor(WAIT);
    await audit(auditor, 'the rules panel');
  });

  await step('invite a person, who joins; turnovers and captures are animated', page, async () => {
    const bob = await (await newContext()).newPage();
    // Moves up to a change, the change both players must see animated, and moves after it
    // (so that the replay rebuilds the changed board rather than taking the server's).
    for (const [game, params, moves, changed, more] of [
      // docs/rules.md: black's dc gives white's cc a fifth black neighbour, and it turns over.
      ['ctor', { size: 5 }, 'bb cc end cb db aa ae bc dc', '.stone.flipped.flip-to-b', 'ed end'],
      ['go', { size: 5 }, 'ab aa ba', '.stone.captured.w', 'cc dd'],
    ]) {
      const id = await createGame(page, { game, params, opponent: 'invite' });
      await expectText(page, '.status', 'Waiting for an opponent');
      const link = await page.inputValue('.invite-link');
      // The invitation shows the game before the visitor chooses a name, then joins.
      await joinInvite(bob, link, id, async () => {
        await expectText(bob, '.invitation-details', `${game} 5×5`);
        await expectText(bob, '.invitation-details', 'You playwhite');
      });
      await expectText(bob, '.players', 'you play white');
      for (const move of moves.split(' ')) await playByHand([page, bob], move);
      await page.waitForSelector(`svg.board ${changed}`, WAIT);
      await bob.waitForSelector(`svg.board ${changed}`, WAIT);
      for (const move of more.split(' ')) await playByHand([page, bob], move);
      expect(await boardOf(page) === await boardOf(bob), 'the two players see different boards');
      await checkReplay(page, id);
    }
    await bob.context().close();
  });

  await step('people talk, take a move back and play a rematch', page, async () => {
    const bob = await (await newContext()).newPage();
    const id = await createGame(page, { game: 'go', params: { size: 5 }, opponent: 'invite' });
    await joinInvite(bob, await page.inputValue('.invite-link'), id);
    // A spectator without a name reads the spectators' room and is told how to talk.
    const carol = await (await newContext()).newPage();
    await carol.goto(`${BASE}/game/${id}`);
    await expectText(carol, '.chat h2', "Spectators' chat");
    await carol.fill('#chat-text', 'hello?');
    await carol.click('.chat-form button[type=submit]');
    await expectText(carol, '.chat-error', 'Choose a name in the lobby to chat.');
    await signIn(carol, 'carol');
    await carol.goto(`${BASE}/game/${id}`);
    // The players' room and the spectators' are apart.
    await expectText(page, '.chat h2', 'Chat with your opponent');
    await page.fill('#chat-text', 'good luck');
    await page.click('.chat-form button[type=submit]');
    await expectText(bob, '.chat-log', 'alice good luck');
    await carol.fill('#chat-text', 'hello players');
    await carol.click('.chat-form button[type=submit]');
    await expectText(carol, '.chat-log', 'carol hello players');
    expect(!(await bob.textContent('.chat-log')).includes('hello players'), 'a spectator line reached the players');
    expect(!(await carol.textContent('.chat-log')).includes('good luck'), 'a player line reached the spectators');
    // The chat can be turned off, and stays off.
    await bob.uncheck('#toggle-chat');
    expect(await bob.locator('.chat').isHidden(), 'the chat shows while turned off');
    await bob.reload();
    await bob.waitForSelector('svg.board', WAIT);
    await bob.waitForSelector('#toggle-chat', { state: 'attached', ...WAIT });
    expect(await bob.locator('.chat').isHidden() && !(await bob.isChecked('#toggle-chat')), 'the chat came back on');
    await bob.check('#toggle-chat');

    // Alice takes her move back; Bob is asked, in words, and accepts.
    await playByHand([page, bob], 'cc');
    await playByHand([page, bob], 'dd');
    await page.click('button.takeback');
    await expectText(page, '.offers', 'waiting for your opponent');
    await expectText(bob, '.offers', 'Your opponent asks to take back their last move.');
    await shot(bob, 'game-people-takeback.png', '.game');
    await bob.click('.offers button.accept-takeback');
    for (const p of [page, bob]) {
      await p.waitForFunction(() => document.querySelectorAll('ol.moves button.move').length === 0, null, WAIT);
      expect((await boardOf(p)).replace(/[/.]/g, '') === '', 'stones stayed after the takeback');
    }
    expect(await page.locator('.offers').isHidden(), 'the request still shows');
    await playByHand([page, bob], 'bb');

    // Alice resigns; Bob offers a rematch, Alice accepts, and both are in the new game with
    // the colours swapped.
    await page.click('button.resign');
    await page.click('button.resign');
    await expectText(bob, '.result', 'You won');
    await bob.click('.after-game button.rematch');
    await expectText(bob, '.offers', 'You offered a rematch');
    await expectText(page, '.offers', 'Your opponent offers a rematch.');
    await page.click('.offers button.accept-rematch');
    for (const [p, color] of [[page, 'white'], [bob, 'black']]) {
      await p.waitForFunction((old) => /^\/game\//.test(location.pathname) && !location.pathname.endsWith(old), id, WAIT);
      await expectText(p, '.players', `you play ${color}`);
    }
    await expectText(carol, '.offers', 'Watch the rematch');
    await Promise.all([bob.context().close(), carol.context().close()]);
  });

  await step('a draw is offered and accepted from the page; a game abandoned by the opponent is claimed', page, async () => {
    const bob = await (await newContext()).newPage();
    const id = await createGame(page, { game: 'go', params: { size: 5 }, opponent: 'invite' });
    await joinInvite(bob, await page.inputValue('.invite-link'), id);
    // Before both sides have moved either may abort; after, no longer.
    await bob.waitForSelector('button.abort', WAIT);
    await playByHand([page, bob], 'cc');
    await playByHand([page, bob], 'dd');
    expect(!(await page.locator('button.abort').isVisible()), 'abort is offered after both sides moved');
    await page.click('button.offer-draw');
    await expectText(page, '.offers', 'You offered a draw: waiting for your opponent.');
    await expectText(bob, '.offers', 'Your opponent offers a draw.');
    await bob.click('.offers button.accept-draw');
    for (const p of [page, bob]) await expectText(p, '.result', 'Draw');
    // Bob closes his page in the next game; after the grace time Alice claims it.
    const next = await createGame(page, { game: 'go', params: { size: 5 }, opponent: 'invite' });
    await joinInvite(bob, await page.inputValue('.invite-link'), next);
    await playByHand([page, bob], 'cc');
    await bob.context().close();
    await expectText(page, '.claim', 'Your opponent left the game');
    await page.waitForSelector('.claim button.claim-victory:not([disabled])', { timeout: 40_000 });
    await page.click('.claim button.claim-victory');
    await expectText(page, '.result', 'You won');
  });

  await step('two strangers click the same quick-pairing cell and land in one game; an open game is joined from its page', page, async () => {
    const [pat, quinn] = await Promise.all([newContext(), newContext()].map(async (c) => (await c).newPage()));
    await Promise.all([signIn(pat, 'pat'), signIn(quinn, 'quinn')]);
    const cell = 'table.pool-grid button.pool[data-game="torus"][data-clock="3+2"]';
    await Promise.all([pat.click(cell), quinn.click(cell)]);
    for (const p of [pat, quinn]) await p.waitForURL(/\/game\/[^/]+$/, WAIT);
    expect(pat.url() === quinn.url(), `paired into ${pat.url()} and ${quinn.url()}`);
    for (const p of [pat, quinn]) await expectText(p, '.players', 'you play');
    const colors = await Promise.all([pat, quinn].map((p) => p.textContent('.players .you')));
    expect(colors[0] !== colors[1], `both play ${colors[0]}`);
    // Pat opens a game of a move a day and waits; Quinn finds it in the lobby and joins it.
    await pat.goto(BASE + '/');
    await pat.click('table.pool-grid button.pool[data-game="hex-torus"][data-clock="1 day"]');
    await pat.waitForURL(/\/game\/[^/]+$/, WAIT);
    await expectText(pat, '.waiting', 'open to anyone');
    const open = decodeURIComponent(new URL(pat.url()).pathname.split('/')[2]);
    await quinn.goto(BASE + '/');
    await quinn.click(`ul.waiting-games li[data-id="${open}"] a`);
    await quinn.click('.waiting button.join');
    for (const p of [pat, quinn]) await expectText(p, '.players', 'you play');
    await pat.waitForSelector('.waiting', { state: 'hidden', ...WAIT });
    // A game of a day a move: My games says whose move it waits for.
    const badges = [];
    for (const p of [pat, quinn]) {
      await p.goto(BASE + '/');
      await p.waitForSelector(`ul.my-games li[data-id="${open}"]`, WAIT);
      badges.push(await p.locator(`ul.my-games li.your-turn[data-id="${open}"] .turn-badge`).count());
    }
    expect(badges[0] + badges[1] === 1, `"Your turn" shows ${badges} times for the two players`);
    // A waiting open game can be cancelled: it ends without a result.
    await pat.goto(BASE + '/');
    await pat.click('table.pool-grid button.pool[data-game="m-torus"][data-clock="10+5"]');
    await pat.waitForURL(/\/game\/[^/]+$/, WAIT);
    await pat.click('.waiting button.withdraw');
    await expectText(pat, '.result', 'Aborted');
    await Promise.all([pat.context().close(), quinn.context().close()]);
  });

  await step("a finished game's analysis fills the evaluation graph and marks the blunder played on purpose", page, async () => {
    const bob = await (await newContext()).newPage();
    const id = await createGame(page, { game: 'capture-go', params: { size: 5, target: 1 }, opponent: 'invite' });
    await joinInvite(bob, await page.inputValue('.invite-link'), id);
    // Black (Alice) plays into the corner whose other point white holds; white captures.
    for (const move of ['cc', 'ba', 'aa', 'ab']) await playByHand([page, bob], move);
    await expectText(page, '.result', 'You lost');
    await page.click('.review button.request-review');
    await page.waitForSelector('svg.eval-graph[data-points="5"]', { timeout: 40_000 });
    await expectText(page, '.review-counts', 'Black:');
    const marked = await page.locator('ol.moves button.move.blunder').allTextContents();
    expect(marked.length >= 1 && marked.includes('A5??'), `moves marked blunders: ${marked}`);
    await page.click('ol.moves button.move.blunder >> text=A5??');
    await expectText(page, '.review-judgement', 'was a blunder');
    await shot(page, 'analysis-review.png', '.game');
    // A second visitor sees it at once, without asking.
    await bob.reload();
    await bob.waitForSelector('svg.eval-graph[data-points="5"]', WAIT);
    await bob.context().close();
    reviewedGame = id;
  });

  await step('a puzzle mined from a finished game explains a wrong move, then is solved', page, async () => {
    // White's capture in the analysed game is a puzzle: its page links it.
    await page.goto(`${BASE}/game/${reviewedGame}`);
    await page.waitForSelector('.review .game-puzzles a >> text=after move 3', { timeout: 40_000 });
    await page.click('.review .game-puzzles a >> text=after move 3');
    await page.waitForURL(/\/puzzles\/[^/]+$/, WAIT);
    const puzzle = page.locator('article.puzzle[data-game="capture-go"][data-goal="win"]');
    await puzzle.waitFor(WAIT);
    await expectText(page, 'article.puzzle .lesson-prompt', 'White to play: find the quickest win.');
    await expectText(page, '.puzzle-standing', 'to keep a puzzle rating.');
    await puzzle.locator('svg.board .hit[data-name="ee"][data-ghost="0"]').click();
    await expectText(page, 'article.puzzle .lesson-feedback.wrong', 'E1 does not win by force: A4 wins at once.');
    await expectText(page, 'article.puzzle .puzzle-after', 'The answer: A4.');
    // Another try, from the puzzle's page again: the answer solves it, and the board shows
    // the capture (black's stone on A5 is gone).
    await page.reload();
    await puzzle.waitFor(WAIT);
    await puzzle.locator('svg.board .hit[data-name="ab"][data-ghost="0"]').click();
    await expectText(page, 'article.puzzle .lesson-feedback.solved', 'Right: A4 wins at once.');
    await page.waitForFunction(() => document.querySelector('article.puzzle svg.board').dataset.board.startsWith('.'), null, WAIT);
    await shot(page, 'puzzle-solved.png', '.puzzles');
    // The rule set's puzzle page lists it; Next puzzle goes on (here: none left but this one).
    await page.click('article.puzzle a.next-puzzle');
    await page.waitForURL(/\/puzzles\?game=capture-go/, WAIT);
    await expectText(page, 'nav.lesson-games a[aria-current=page]', 'capture-go (');
    const auditor = await (await newContext({ ...DESKTOP, bypassCSP: true })).newPage();
    await auditor.goto(`${BASE}/puzzles/${new URL(page.url()).searchParams.get('skip')}`);
    await auditor.waitForSelector('article.puzzle svg.board', WAIT);
    await audit(auditor, 'a puzzle');
    await auditor.context().close();
  });

  await step('a lesson explains a wrong move and accepts the right one, as the rules judge them', page, async () => {
    await page.click('header nav a >> text=Learn');
    await page.waitForSelector('article.lesson', WAIT);
    await page.click('nav.lesson-games a >> text=capture-go');
    const lesson = page.locator('article.lesson[data-game="capture-go"]').first();
    await lesson.waitFor(WAIT);
    await expectText(page, 'article.lesson .lesson-prompt', 'Black to play: find the move that makes you capture.');
    await lesson.locator('svg.board .hit[data-name="bb"][data-ghost="0"]').click();
    await expectText(page, 'article.lesson .lesson-feedback.wrong', 'does not capture here');
    await lesson.locator('svg.board .hit[data-name="ae"][data-ghost="0"]').click();
    await expectText(page, 'article.lesson .lesson-feedback.solved', 'Right.');
    // The board shows what the move did: the white stone on A5 is gone.
    await page.waitForFunction(() => document.querySelector('article.lesson svg.board').dataset.board.startsWith('.'), null, WAIT);
    const auditor = await (await newContext({ ...DESKTOP, bypassCSP: true })).newPage();
    await auditor.goto(`${BASE}/learn?game=m-torus`);
    await auditor.waitForSelector('article.lesson svg.board', WAIT);
    await audit(auditor, 'the lessons');
    await auditor.context().close();
  });

  await step('two people agree on dead stones; the end of a Go game marks territory; the winning capture of capture-go is lit', page, async () => {
    const bob = await (await newContext()).newPage();
    for (const [game, params, moves] of [
      ['go', { size: 5 }, 'cc pass pass'],
      ['capture-go', { size: 5, target: 1 }, 'ba aa ab'],
    ]) {
      const id = await createGame(page, { game, params, opponent: 'invite' });
      await joinInvite(bob, await page.inputValue('.invite-link'), id);
      for (const move of moves.split(' ')) await playByHand([page, bob], move);
      if (game === 'go') {
        // Between people, two passes open the marking of dead stones (no stone is dead
        // here): Alice marks the lone stone dead, both see it and the result it would give,
        // Bob marks it alive again, and both accept.
        await expectText(page, '.offers', 'mark the dead stones');
        await page.click('svg.board .hit[data-name="cc"][data-ghost="0"]');
        for (const p of [page, bob]) {
          await p.waitForSelector('svg.board .win-cell:not(.ghost)', WAIT);
          await expectText(p, '.offers', 'white wins by 7.5');
        }
        await shot(bob, 'game-dead-stones.png', '.game');
        await bob.click('svg.board .hit[data-name="cc"][data-ghost="0"]');
        await expectText(page, '.offers', 'black wins by 17.5');
        await page.click('.offers button.accept-dead');
        await expectText(page, '.offers', 'waiting for your opponent');
        await bob.click('.offers button.accept-dead');
      }
      await expectText(page, '.result', 'You won');
      const state = await (await page.request.get(`${BASE}/api/games/${id}`)).json();
      if (game === 'go') {
        // Every empty point is black's: 24 squares, as the score counts them.
        await page.waitForSelector('svg.board .territory.b', WAIT);
        const marked = await page.getAttribute('svg.board', 'data-territory');
        const owned = state.position.territory.join('').split('').filter((c) => c === 'b').length;
        expect(marked === `${owned},0` && owned === 24, `territory marked ${marked}, the server counts ${owned}`);
        await expectText(page, '.score', 'Final score: black 25, white 7.5');
        const result = state.result;
        expect(result.winner === 'black' && result.margin === 17.5 && state.counting.dead.length === 0,
          `stored ${JSON.stringify(result)}, ${JSON.stringify(state.counting)}`);
        await expectText(page, '.result', result.text);
        await shot(page, 'finished-go-territory.png');
      } else {
        // The capturing stone and the captured one.
        await page.waitForSelector('svg.board .win-cell', WAIT);
        const lit = await page.locator('svg.board .win-cell:not(.ghost)').count();
        expect(lit === 2 && state.position.highlight.join(' ') === 'ab aa', `lit ${lit}: ${state.position.highlight}`);
        await shot(page, 'finished-capture-go.png');
      }
    }
    await bob.context().close();
  });

  await step('a 19×19 board fits an 800 px screen, and zoomed it pans to every column', page, async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await createGame(page, { game: 'go', params: { size: 19 } });
    const board = await page.locator('svg.board').boundingBox();
    expect(board.y + board.height <= 800 && board.height >= 600, `the board spans y ${board.y}–${board.y + board.height} of 800`);
    for (let k = 0; k < 3; k++) await page.click('.zoom button[aria-label="Zoom in"]');
    await expectReachable(page, '19×19 zoomed three times');
    await page.setViewportSize(DESKTOP.viewport);
    await page.click('button.resign');
    await page.click('button.resign');
  });

  const phoneView = await (await newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, storageState: await alice.storageState() })).newPage();
  await step('every rule set: board screenshots and ghosts', page, async () => {
    for (const game of GAMES) {
      const id = await createGame(page, { game, params: game.endsWith('go') ? { topology: 'torus' } : {} });
      for (let k = 0; k < 5 && (await turnOrOver(page)) === 'turn'; k++) {
        if (game === 'ctor') await expectText(page, '.status', k === 0 ? 'placement 1 of 1' : 'placement 1 of 2');
        await clickLegal(page, 13 * k + 4);
        if ((await turnOrOver(page)) === 'turn' && (await page.locator('button.end-turn:visible').count())) {
          await expectText(page, '.status', 'placement 2 of 2');
          await clickLegal(page, 13 * k + 9); // CTOR: a second stone in the same turn
        }
      }
      if (game === 'ctor') {
        // A turn's two placements share a line of the move list, and both are marked.
        expect(await page.locator('ol.moves li:has(button.move + button.move)').count() > 0, 'no turn of two placements');
      }
      if (game === 'capture-go') await expectText(page, '.score', 'Captured (5 wins): black');
      await turnOrOver(page);
      if (game.endsWith('go')) {
        const stars = await page.locator('svg.board .star').count();
        expect(stars === 5, `${stars} star points on a 9×9 board`);
      }
      await checkGhosts(page, id);
      await shot(page, `board-${game}.png`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot(page, `game-${game}-dark.png`, '.game');
      await page.emulateMedia({ colorScheme: 'light' });
      // The same game on a phone, light and dark.
      await phoneView.goto(`${BASE}/game/${id}`);
      await phoneView.waitForSelector('svg.board', WAIT);
      await phoneView.waitForTimeout(500);
      await phoneView.screenshot({ path: join(OUT, `phone-${game}.png`) });
      await phoneView.emulateMedia({ colorScheme: 'dark' });
      await phoneView.screenshot({ path: join(OUT, `phone-${game}-dark.png`) });
      await phoneView.emulateMedia({ colorScheme: 'light' });
      await checkReplay(page, id);
    }
  });

  await step('the Möbius strip, the Klein bottle and the projective plane show their gluing', page, async () => {
    // Ghosts outside a 5×5 board by their grid position, as docs/rules.md draws them (null:
    // an open edge, no ghost).
    const expected = {
      mobius: { '-1,0': 'ee', '-1,1': 'ed', '5,0': 'ae', '5,4': 'aa', '2,-1': null },
      klein: { '-1,0': 'ea', '5,3': 'ad', '0,-1': 'ee', '1,-1': 'de', '4,5': 'aa' },
      projective: { '-1,0': 'ee', '-1,1': 'ed', '5,1': 'ad', '1,-1': 'de', '3,5': 'ba' },
    };
    for (const [topology, ghosts] of Object.entries(expected)) {
      const id = await createGame(page, { game: 'go', params: { size: 5, topology } });
      for (const [at, name] of Object.entries(ghosts)) {
        const ghost = page.locator(`svg.board .hit[data-ghost="1"][data-at="${at}"]`);
        const shown = (await ghost.count()) ? await ghost.getAttribute('data-name') : null;
        expect(shown === name, `${topology}: the ghost at (${at}) shows ${shown}, not ${name}`);
      }
      await checkGhosts(page, id);
      const seams = await page.locator('svg.board .seam title').allTextContents();
      expect(seams.some((t) => t.includes('glued in reverse')), `${topology}: no reversed seam in ${seams}`);
      await shot(page, `board-go-${topology}.png`);
    }
  });

  await step('the winning loop is highlighted', page, async () => {
    for (const [game, params] of [['hex-torus', { width: 4, height: 4 }], ['m-torus', { width: 5, height: 5 }]]) {
      await createGame(page, { game, params });
      for (let k = 0; (await turnOrOver(page)) === 'turn'; k++) {
        const n = await plies(page);
        await clickLegal(page, 3 * k + 1);
        await page.waitForFunction((n) => document.querySelectorAll('ol.moves button.move').length > n + 1
          || !document.querySelector('.result').hidden, n, WAIT);
      }
      await expectText(page, '.result', 'wins');
      await page.waitForSelector('svg.board .win-cell', WAIT);
      await shot(page, `finished-${game}.png`, '.game');
    }
  });

  await step('the pie rule: white takes over the first stone', page, async () => {
    await createGame(page, { game: 'hex-torus', params: { width: 4, height: 4, swap: 'true' }, color: 'white' });
    await page.locator('button.swap').waitFor(WAIT);
    const label = await page.locator('button.swap').getAttribute('aria-label');
    expect(label === "Swap: take over black's first stone (pie rule)", `the Swap button is labelled ${label}`);
    await page.click('button.swap');
    await waitPlies(page, 2);
    const moves = await page.locator('ol.moves button.move').allTextContents();
    expect(moves[1].includes('swap'), `move 2 is ${moves[1]}`);
    // The house bot, black, now moves against the white stone it placed itself.
    await waitPlies(page, 3);
    const stones = (await boardOf(page)).replace(/[^bw]/g, '');
    expect(stones.split('').sort().join('') === 'bw', `after the swap and black's reply the stones are ${stones}`);
    expect(!(await page.locator('button.swap').isVisible()), 'the Swap button is gone after move 2');
    await shot(page, 'swap-hex-torus.png', '.game');
  });

  const phone = await newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, storageState: await alice.storageState() });
  const small = await phone.newPage();
  await step('a phone shows the turn, the clocks and the buttons first, and reaches every cell of m-torus 9×9 and hex-torus 8×8', small, async () => {
    for (const [game, params] of [['m-torus', { width: 9, height: 9 }], ['hex-torus', { width: 8, height: 8 }]]) {
      await createGame(page, { game, params, clock: '300+5' });
      const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
      await small.goto(`${BASE}/game/${id}`);
      await small.waitForSelector('svg.board', WAIT);
      for (const selector of ['.status', '.clocks', 'button.resign']) {
        const box = await small.locator(selector).boundingBox();
        expect(box && box.y + box.height <= 844, `${game}: ${selector} ends at y ${box && box.y + box.height} on an 844 px screen`);
      }
      await expectReachable(small, game);
      await page.click('button.resign');
      await page.click('button.resign');
    }
  });

  await step('narrow window: the board fits and a double tap plays', small, async () => {
    await small.goto(`${BASE}/game/${hexId}`);
    await small.waitForSelector('svg.board.interactive', WAIT);
    const box = await small.locator('svg.board').boundingBox();
    const width = await small.evaluate(() => document.documentElement.scrollWidth);
    expect(width <= 390 && box.width > 300, `the page is ${width}px and the board ${box.width}px wide in a 390px window`);
    // Hexagons at least 36 px apart, a finger's width; the board pans, and zooms further.
    const centre = async (name) => {
      const b = await small.locator(`svg.board .hit[data-name="${name}"][data-ghost="0"]`).boundingBox();
      return b.x + b.width / 2;
    };
    const step = (await centre('ba')) - (await centre('aa'));
    expect(step >= 36, `hex cells are ${step.toFixed(1)} px apart on a phone`);
    await small.click('.zoom button[aria-label="Zoom in"]');
    const zoomed = await small.locator('svg.board').boundingBox();
    const still = await small.evaluate(() => document.documentElement.scrollWidth);
    expect(zoomed.width > box.width * 1.2 && still <= 390, `zoomed to ${zoomed.width}px, the page ${still}px wide`);
    await small.click('.zoom button[aria-label="Zoom out"]');
    const before = await plies(small);
    const cell = small.locator('svg.board .hit.legal[data-ghost="0"]').nth(10);
    await cell.tap();
    await small.waitForSelector('svg.board .preview .stone', WAIT);
    expect(await plies(small) === before, 'a single tap played a move');
    await cell.tap();
    await waitPlies(small, before + 1);
    await small.screenshot({ path: join(OUT, 'narrow-hex-torus.png'), fullPage: true });
  });

  await step('resign after a confirmation', page, async () => {
    await page.goto(`${BASE}/game/${hexId}`);
    await page.waitForSelector('svg.board.interactive', WAIT);
    await page.click('button.resign');
    await expectText(page, 'button.resign', 'Really');
    expect(await page.locator('.result:not([hidden])').count() === 0, 'one click resigned');
    await page.click('button.resign');
    await expectText(page, '.result', 'white');
    await expectText(watcher, '.result', 'white');
  });

  await step('the lobby lists my games, and spectators without a name can watch', page, async () => {
    await page.goto(BASE + '/');
    await page.waitForSelector('ul.my-games li[data-id]', WAIT);
    await page.selectOption('#new-clock', 'custom');
    await page.fill('#clock-minutes', '0');
    await page.click('form.new-game button[type=submit]');
    await expectText(page, 'form.new-game .error', 'A custom time is');
    const mine = await page.locator('ul.my-games li[data-id] .players').allTextContents();
    expect(mine.length === 10 && mine.every((p) => p.includes('alice')), `my games: ${mine.join('; ')}`);
    const stranger = await (await newContext()).newPage();
    await stranger.goto(`${BASE}/game/${hexId}`);
    await stranger.waitForSelector('svg.board', WAIT);
    await expectText(stranger, '.you', 'spectating');
    await stranger.context().close();
  });

  await accounts(page);

  await step('no script errors on any page', null, async () => {
    expect(pageErrors.length === 0, pageErrors.join('; '));
  });
}

// Accounts, ratings and tournaments (ACCOUNT_STEPS steps), for the guest signed in on `page`:
// it claims its name with a password, plays a rated game, finds itself on the leaderboard and
// its page with a rating graph, signs out and in again, and runs a tournament of house bots
// whose standings and crosstable fill in live.
async function accounts(page) {
  const name = await page.evaluate(() => fetch('/api/session').then((r) => r.json()).then((s) => s.name));
  const password = 'correct horse battery';
  await step('a guest creates an account from the header', page, async () => {
    await page.goto(BASE + '/');
    await page.click('#who >> text=Create account');
    await page.waitForSelector('form.sign-in', WAIT);
    expect(await page.inputValue('#account-name') === name, 'the guest name is not offered');
    await page.fill('#account-password', 'short');
    await page.click('form.sign-in button[type=submit]');
    await expectText(page, 'form.sign-in .error', 'at least 8');
    await page.fill('#account-password', password);
    await page.screenshot({ path: join(OUT, 'sign-up.png') });
    await page.click('form.sign-in button[type=submit]');
    await page.waitForSelector(`#who a.name[href="/player/${encodeURIComponent(name)}"]`, WAIT);
  });
  await step('a rated game changes the rating: leaderboard and player page with its graph', page, async () => {
    await createGame(page, { game: 'capture-go', clock: '300+5', rated: true });
    await expectText(page, 'h1.game-title', 'rated');
    // The ratings beside the names: a new player's 1500, the house level's ladder rating.
    await expectText(page, '.players .player.black .rating', '(1500)');
    await expectText(page, '.players .player.white .rating', '(600)');
    // Two moves each first: a game resigned sooner changes no rating.
    await clickLegal(page, 0);
    await waitPlies(page, 2);
    await clickLegal(page, 1);
    await waitPlies(page, 4);
    await page.click('button.resign');
    await page.click('button.resign');
    await expectText(page, '.result', 'white');
    // And once it is over, what it did to them.
    await expectText(page, '.players .player.black .rating.down', /\(1500 −\d+\)/);
    await expectText(page, '.players .player.white .rating.up', /\(600 \+\d+\)/);
    await page.goto(`${BASE}/leaderboard/capture-go`);
    await page.waitForSelector('table.leaderboard', WAIT);
    const rows = await page.locator('table.leaderboard tbody tr').allTextContents();
    expect(rows.length === 2, `the leaderboard has ${rows.length} rows: ${rows}`);
    // `random` entered the pool at its ladder rating (600), far below a new player's 1500:
    // its win lifts it a little, and the loser, though lowered, stays above it.
    expect(rows[0].includes(name) && /house bot/.test(rows[1]), `not ranked by rating: ${rows}`);
    expect(/\?/.test(rows[0]), 'a first rating is not marked provisional');
    await page.locator('.ratings').screenshot({ path: join(OUT, 'leaderboard-capture-go.png') });
    await page.click(`table.leaderboard a[href="/player/${encodeURIComponent(name)}"]`);
    await page.waitForSelector('.pool[data-pool="capture-go"] svg.rating-graph[data-points="2"]', WAIT);
    const rating = Number((await page.textContent('.pool[data-pool="capture-go"] .rating')).replace('?', ''));
    expect(rating < 1500, `a loss left the rating at ${rating}`);
    expect(await page.locator('.player-page .finished-games li').count() >= 1, 'the rated game is not listed');
    await page.locator('.player-page').screenshot({ path: join(OUT, 'player-page.png') });
  });
  await step('sign out, a wrong password is refused, sign in again', page, async () => {
    await page.click('#who button.sign-out');
    await page.waitForSelector('#who >> text=Sign in', WAIT);
    await page.click('#who >> text=Sign in');
    await page.waitForSelector('form.sign-in', WAIT);
    await page.fill('#account-name', name.toUpperCase());
    await page.fill('#account-password', 'not the password');
    await page.click('form.sign-in button[type=submit]');
    await expectText(page, 'form.sign-in .error', 'No account has this name and password');
    await page.fill('#account-password', password);
    await page.click('form.sign-in button[type=submit]');
    await page.waitForSelector('#who a.name', WAIT);
    expect(await page.textContent('#who a.name') === name, 'signed in under another name');
  });
  let chatGame;
  await step('report a chat line and block its author; their lines hide until unblocked in Settings', page, async () => {
    const mallory = await (await newContext()).newPage();
    await signIn(mallory, 'mallory');
    chatGame = await createGame(page, { game: 'go', params: { size: 5 }, opponent: 'invite' });
    await joinInvite(mallory, await page.inputValue('.invite-link'), chatGame);
    await mallory.fill('#chat-text', 'you play like a potato');
    await mallory.click('.chat-form button[type=submit]');
    await expectText(page, '.chat-log', 'mallory you play like a potato');
    await page.click('.chat-line button.report-line');
    await page.fill('.report-form input[name=reason]', 'insults in the chat');
    await page.click('.report-form button[type=submit]');
    await expectText(page, '.report-status', 'Reported');
    await page.click('.report-form button.block');
    await expectText(page, '.report-status', 'mallory is blocked');
    await page.reload();
    await page.waitForSelector('.chat:not([hidden]) .chat-log', WAIT);
    await page.waitForTimeout(500); // the history has arrived: the line must not be in it
    expect(!(await page.textContent('.chat-log')).includes('potato'), 'a blocked player\'s line still shows');
    await page.click('#who a.settings');
    await page.waitForSelector('ul.blocked', WAIT);
    await expectText(page, 'ul.blocked', 'mallory');
    await page.click('ul.blocked button >> text=Unblock mallory');
    await expectText(page, 'ul.blocked', 'You block nobody.');
    await page.goto(`${BASE}/game/${chatGame}`);
    await expectText(page, '.chat-log', 'mallory you play like a potato');
    await mallory.context().close();
  });
  await step('a moderator reads the report, deletes the line and marks it dealt with', page, async () => {
    const [name, secret] = [opts.moderator.slice(0, opts.moderator.indexOf(':')), opts.moderator.slice(opts.moderator.indexOf(':') + 1)];
    // A browser that lets axe's script in past the page's CSP.
    const mod = await (await newContext({ ...DESKTOP, bypassCSP: true })).newPage();
    await mod.goto(`${BASE}/signin`);
    await mod.fill('#account-name', name);
    await mod.fill('#account-password', secret);
    await mod.click('form.sign-in button[type=submit]');
    await mod.click('#who a.moderation');
    await mod.waitForSelector('.admin .reports', WAIT);
    await expectText(mod, '.admin .reports', 'insults in the chat');
    await expectText(mod, '.admin .reports', 'you play like a potato');
    await audit(mod, 'the moderators\' page');
    await mod.click('.admin .reports button >> text=Delete line');
    await expectText(mod, '.admin-status', 'deleted mallory');
    await mod.click('.admin .reports button >> text=Dealt with');
    await expectText(mod, '.admin .reports', 'No report to deal with.');
    await mod.fill('#lines-of', 'mallory');
    await mod.click('.lines-form button[type=submit]');
    await expectText(mod, '.admin .player-lines', '(deleted)');
    await mod.click('#who a.settings');
    await mod.waitForSelector('form.password-form', WAIT);
    await audit(mod, 'the settings page');
    await page.reload();
    await page.waitForSelector('.chat:not([hidden]) .chat-log', WAIT);
    await page.waitForTimeout(500);
    expect(!(await page.textContent('.chat-log')).includes('potato'), 'a deleted line still shows');
    await mod.context().close();
  });
  await step('change the password in Settings: the current one is asked', page, async () => {
    await page.click('#who a.settings');
    await page.waitForSelector('form.password-form', WAIT);
    await page.fill('#password-current', 'not the password');
    await page.fill('#password-new', 'a newer horse');
    await page.click('form.password-form button[type=submit]');
    await expectText(page, '.password-status', 'not your current password');
    await page.fill('#password-current', password);
    await page.click('form.password-form button[type=submit]');
    await expectText(page, '.password-status', 'Your password is changed.');
    const signedIn = await page.evaluate(async (p) => (await fetch('/api/session', { method: 'POST',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: p.name, password: p.password }) })).status,
    { name, password: 'a newer horse' });
    expect(signedIn === 201, `the new password does not sign in (${signedIn})`);
  });
  await step('follow and challenge a player from their page; she accepts in her lobby, then from a note, and shows online', page, async () => {
    const bea = await (await newContext()).newPage();
    await signIn(bea, 'bea');
    const made = await bea.evaluate(async () => (await fetch('/api/accounts', { method: 'POST',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'bea', password: 'bea horse battery' }) })).status);
    expect(made === 201, `bea has no account (${made})`);
    await page.goto(`${BASE}/player/bea`);
    await page.waitForSelector('form.challenge', WAIT);
    // Alice follows Bea too.
    await page.click('.player-page button.follow');
    await expectText(page, '.player-page button.follow', 'Unfollow');
    await page.selectOption('#challenge-game', 'torus');
    await page.click('form.challenge button[type=submit]');
    await expectText(page, 'form.challenge .note', 'Challenge sent');
    await bea.goto(BASE + '/');
    await expectText(bea, 'ul.challenges li.incoming', `${name} challenges you`);
    await shot(bea, 'lobby-challenge.png', 'ul.challenges');
    await bea.click('ul.challenges button.accept-challenge');
    await bea.waitForURL(/\/game\/[^/]+$/, WAIT);
    await bea.waitForSelector('svg.board', WAIT);
    const gameId = decodeURIComponent(new URL(bea.url()).pathname.split('/')[2]);
    await page.goto(BASE + '/');
    // Bea, whom Alice follows, is online (a page of hers is open) and plays the game.
    await expectText(page, 'ul.following li.online[data-name="bea"]', 'online');
    await page.waitForSelector(`ul.following li[data-name="bea"] a.live-game[href="/game/${encodeURIComponent(gameId)}"]`, WAIT);
    await page.waitForSelector(`ul.challenges li.outgoing.accepted a[href="/game/${encodeURIComponent(gameId)}"]`, WAIT);
    await page.click('ul.challenges li.outgoing.accepted a');
    await page.waitForSelector('svg.board', WAIT);
    await expectText(page, '.players', 'you play');
    // Another challenge reaches Bea wherever she is: a note on the page, and a browser
    // notification while her tab is hidden. She accepts it there.
    await bea.goto(`${BASE}/tournaments`);
    await bea.waitForSelector('.new-tournament, .tournament-list', WAIT);
    await bea.evaluate(() => {
      window.__notes = [];
      window.Notification = class {
        static permission = 'granted';
        constructor(title, options) { window.__notes.push(`${title} — ${options.body}`); }
      };
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    });
    await page.goto(`${BASE}/player/bea`);
    await page.waitForSelector('form.challenge', WAIT);
    await page.selectOption('#challenge-game', 'hex-torus');
    await page.click('form.challenge button[type=submit]');
    await expectText(bea, '#news .news-item.challenge', `${name} challenges you`);
    const notes = await bea.evaluate(() => window.__notes);
    expect(notes.some((n) => n.includes(`${name} challenges you`) && n.includes('hex-torus')), `notifications: ${notes}`);
    await bea.click('#news .news-item.challenge button.accept-challenge');
    await bea.waitForURL(/\/game\/[^/]+$/, WAIT);
    await expectText(bea, 'h1.game-title', 'hex-torus');
    await bea.context().close();
  });
  let id;
  await step('create a tournament of house bots and start it', page, async () => {
    await page.goto(`${BASE}/tournaments`);
    await page.fill('#t-name', 'Browser Cup');
    await page.selectOption('#t-game', 'capture-go');
    await page.selectOption('#t-format', 'round-robin');
    await page.fill('#t-minutes', '1');
    for (const level of ['random', 'greedy', 'beginner']) await page.check(`.house-levels input[value=${level}]`);
    await page.uncheck('#t-join'); // a tournament of house bots only
    await page.click('form.new-tournament button[type=submit]');
    await page.waitForURL(/\/tournament\/[^/]+$/, WAIT);
    id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    await page.waitForSelector('.stage[data-stage="open"]', WAIT);
    expect(await page.locator('.tournament ul.players li').count() === 3, 'the house bots are not in');
    await page.click('.tournament button >> text=Start now');
    await page.waitForSelector('.stage:is([data-stage="running"], [data-stage="finished"])', WAIT);
  });
  await step('the tournament plays itself out; standings and crosstable fill in live', page, async () => {
    await page.waitForSelector('.stage[data-stage="finished"]', { timeout: 90_000 });
    const scores = await page.locator('table.standings tbody tr td:nth-child(3)').allTextContents();
    const total = scores.reduce((sum, t) => sum + (parseInt(t, 10) || 0) + (t.includes('½') ? 0.5 : 0), 0);
    // Three rounds of one game and one bye each: 3 points for the games, 1 for each bye.
    expect(scores.length === 3 && total === 6, `standings ${scores} do not add up to 3 games and 3 byes`);
    const results = await page.locator('table.crosstable td a').allTextContents();
    expect(results.length === 6 && results.every((r) => ['1', '0', '½'].includes(r)), `crosstable cells ${results}`);
    await page.locator('.tournament').screenshot({ path: join(OUT, 'tournament-finished.png') });
    await page.goto(`${BASE}/tournaments`);
    await expectText(page, `.tournament-list li[data-id="${id}"]`, 'finished');
  });
  await step('the creator plays in their tournament: their game is announced, and linked both ways', page, async () => {
    await page.goto(`${BASE}/tournaments`);
    await page.fill('#t-name', 'Browser Duel');
    await page.selectOption('#t-game', 'torus');
    await page.selectOption('#t-format', 'round-robin');
    await page.fill('#t-rounds', '1');
    await page.check('.house-levels input[value=random]');
    await page.click('form.new-tournament button[type=submit]');
    await page.waitForURL(/\/tournament\/[^/]+$/, WAIT);
    // The page renders the players after the URL changes: read them once both are there.
    await page.waitForFunction(() => document.querySelectorAll('.tournament ul.players li').length >= 2, null, WAIT);
    const players = await page.locator('.tournament ul.players li').allTextContents();
    expect(players.length === 2 && players.some((p) => p.includes(name)), `the creator is not in: ${players}`);
    await page.click('.tournament button >> text=Start now');
    await expectText(page, '.your-game', 'Your game of round 1 has started');
    await page.click('.your-game a');
    await page.waitForSelector('svg.board', WAIT);
    await expectText(page, '.tournament-link', 'A tournament game');
    await page.click('.tournament-link a');
    await page.waitForURL(/\/tournament\/[^/]+$/, WAIT);
    await page.click('.your-game a');
    await page.waitForSelector('button.resign', WAIT);
    expect(!(await page.locator('button.abort').isVisible()), 'a tournament game can be aborted');
    await page.click('button.resign');
    await page.click('button.resign');
    await expectText(page, '.result', 'You lost');
  });
}
