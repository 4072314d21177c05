// A stand-in for `toroid serve` that speaks the page's API contract, for developing the page
// and its browser tests without the real server. Positions come from the real rules engine
// (`toroid replay --json`, `toroid topology --json`); the house bot plays uniformly random
// legal moves and the analysis is made up. Nothing is stored.
//
//   node stub-server.mjs --toroid PATH/TO/toroid [--port 0]
//
// It prints `listening on http://127.0.0.1:PORT` once ready.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const LEVELS = ['random', 'greedy', 'beginner', 'casual', 'strong', 'max'];
const BOT_DELAY_MS = 150;
const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

class Refusal extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function startStub(toroidPath, port = 0) {
  const toroid = (args) => new Promise((resolve, reject) => {
    execFile(toroidPath, args, { maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      if (err) reject(new Refusal(400, 'illegal-move', stderr.trim().replace(/^toroid: /, '') || err.message));
      else resolve(stdout);
    });
  });
  const rules = JSON.parse(await toroid(['games', '--json']));
  const sessions = new Map(); // token -> {id, name}
  const games = new Map(); // id -> game record
  const sockets = new Map(); // id -> Set of {ws, session}
  const newId = () => randomBytes(6).toString('hex');
  const now = () => Date.now();

  const paramArgs = (params) => Object.entries(params).flatMap(([k, v]) => ['-p', `${k}=${v}`]);
  const replay = async (g, moves) => JSON.parse(await toroid(['replay', g.game, ...paramArgs(g.params), ...moves, '--json']));

  function stateFor(g, session) {
    const you = ['black', 'white'].find((c) => session && g.seats[c] === session.id) || null;
    const clocks = g.clock && {
      black_ms: Math.round(g.clocks.black_ms - (g.clocks.running === 'black' ? now() - g.turnStarted : 0)),
      white_ms: Math.round(g.clocks.white_ms - (g.clocks.running === 'white' ? now() - g.turnStarted : 0)),
      running: g.clocks.running,
    };
    return {
      id: g.id, game: g.game, params: g.position.params, status: g.status, players: g.players,
      clock: g.clock, clocks, position: g.position, result: g.result, you,
      created_at: g.created_at, finished_at: g.finished_at,
      ...(g.invite && you && g.status === 'waiting' ? { invite: `/join/${g.invite}` } : {}),
    };
  }

  function summary(g) {
    return { id: g.id, game: g.game, params: g.position.params, status: g.status, players: g.players, result: g.result, plies: g.position.ply, created_at: g.created_at, finished_at: g.finished_at };
  }

  function broadcast(g) {
    for (const client of sockets.get(g.id) || []) {
      client.ws.send(JSON.stringify({ type: 'state', game: stateFor(g, client.session) }));
    }
  }

  function finish(g, result) {
    g.status = 'finished';
    g.result = result;
    g.finished_at = Date.now();
    if (g.clocks) g.clocks.running = null;
  }

  // Applies a move for `color`, the engine deciding whether it is legal.
  async function play(g, color, move, ply) {
    if (g.status !== 'live') throw new Refusal(409, 'game-over', 'the game is not being played');
    if (g.position.to_move !== color) throw new Refusal(409, 'not-your-turn', `it is ${g.position.to_move}'s move`);
    if (ply !== g.position.ply) throw new Refusal(409, 'stale-ply', `the game is at ply ${g.position.ply}, not ${ply}`);
    if (typeof move !== 'string' || !move) throw new Refusal(400, 'bad-request', 'move must be a string');
    const position = await replay(g, [...g.moves, move]);
    if (g.position.ply !== ply) throw new Refusal(409, 'stale-ply', 'another move came first');
    g.moves.push(move);
    g.position = position;
    if (g.clocks) {
      g.clocks[`${color}_ms`] += (g.clock.increment_s * 1000) - (now() - g.turnStarted);
      g.clocks.running = position.to_move;
      g.turnStarted = now();
    }
    if (position.over) finish(g, { winner: position.winner, reason: position.reason, text: `${position.winner === 'draw' ? 'draw' : position.winner + ' wins'}: ${position.reason_text}` });
    broadcast(g);
    scheduleBot(g);
  }

  function scheduleBot(g) {
    const color = g.position.to_move;
    if (g.status !== 'live' || !color || g.players[color].kind !== 'house') return;
    setTimeout(() => {
      const legal = g.position.legal_moves;
      play(g, color, legal[Math.floor(Math.random() * legal.length)], g.position.ply).catch(() => {});
    }, BOT_DELAY_MS);
  }

  // Loss on time for the player whose clock ran out.
  setInterval(() => {
    for (const g of games.values()) {
      const running = g.status === 'live' && g.clocks && g.clocks.running;
      if (running && g.clocks[`${running}_ms`] - (now() - g.turnStarted) <= 0) {
        g.clocks[`${running}_ms`] = 0;
        const winner = running === 'black' ? 'white' : 'black';
        finish(g, { winner, reason: 'time', text: `${winner} wins on time` });
        broadcast(g);
      }
    }
  }, 250).unref();

  async function createGame(session, body) {
    const rule = rules.find((r) => r.name === body.game);
    if (!rule) throw new Refusal(400, 'bad-request', `unknown game '${body.game}'`);
    const g = { id: newId(), game: body.game, params: body.params || {}, moves: [], created_at: Date.now(), finished_at: null, result: null };
    try {
      g.position = await replay(g, []);
    } catch (err) {
      throw new Refusal(400, 'bad-request', err.message);
    }
    const color = body.color === 'random' ? (Math.random() < 0.5 ? 'black' : 'white') : body.color;
    const other = color === 'black' ? 'white' : 'black';
    const opponent = body.opponent || {};
    g.seats = { [color]: session.id, [other]: null };
    g.players = { [color]: { kind: 'person', name: session.name }, [other]: null };
    if (opponent.kind === 'house') {
      g.players[other] = { kind: 'house', name: opponent.level };
      g.seats[other] = 'house';
      g.status = 'live';
    } else {
      g.invite = randomBytes(8).toString('hex');
      g.status = 'waiting';
    }
    g.clock = body.clock || null;
    g.clocks = g.clock && { black_ms: g.clock.initial_s * 1000, white_ms: g.clock.initial_s * 1000, running: g.status === 'live' ? 'black' : null };
    g.turnStarted = now();
    games.set(g.id, g);
    scheduleBot(g);
    return g;
  }

  function sessionOf(req) {
    const match = /(?:^|;\s*)toroid_session=([^;]+)/.exec(req.headers.cookie || '');
    return match ? sessions.get(match[1]) || null : null;
  }

  async function readJson(req) {
    let text = '';
    for await (const chunk of req) text += chunk;
    try {
      return text ? JSON.parse(text) : {};
    } catch {
      throw new Refusal(400, 'bad-request', 'the body is not JSON');
    }
  }

  function findGame(id) {
    const g = games.get(id);
    if (!g) throw new Refusal(404, 'not-found', `no game '${id}'`);
    return g;
  }

  function seatOf(g, session) {
    const color = ['black', 'white'].find((c) => g.seats[c] === session.id);
    if (!color) throw new Refusal(403, 'not-a-player', 'only the players can do that');
    return color;
  }

  async function api(req, res, path, query) {
    const session = sessionOf(req);
    const needSession = () => {
      if (!session) throw new Refusal(401, 'no-session', 'sign in first');
      return session;
    };
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const route = `${req.method} ${path.replace(/^\/api\/games\/[^/]+/, '/api/games/{id}')}`;
    const id = decodeURIComponent(path.split('/')[3] || '');
    switch (route) {
      case 'POST /api/session': {
        const { name } = await readJson(req);
        if (typeof name !== 'string' || !name.trim() || name.length > 40) throw new Refusal(400, 'bad-request', 'a name of 1 to 40 characters');
        const token = randomBytes(16).toString('hex');
        const s = { id: newId(), name: name.trim() };
        sessions.set(token, s);
        return send(201, s, { 'Set-Cookie': `toroid_session=${token}; HttpOnly; SameSite=Lax; Path=/` });
      }
      case 'GET /api/session':
        if (!session) throw new Refusal(401, 'no-session', 'not signed in');
        return send(200, session);
      case 'GET /api/rules':
        return send(200, rules);
      case 'GET /api/levels':
        return send(200, LEVELS);
      case 'GET /api/games': {
        const list = [...games.values()].filter((g) => g.status === query.get('status')).reverse();
        return send(200, list.slice(0, Number(query.get('limit') || 50)).map(summary));
      }
      case 'POST /api/games':
        return send(201, stateFor(await createGame(needSession(), await readJson(req)), session));
      case 'GET /api/games/{id}':
        return send(200, stateFor(findGame(id), session));
      case 'GET /api/games/{id}/topology': {
        const g = findGame(id);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(await toroid(['topology', g.game, ...paramArgs(g.params), '--json']));
      }
      case 'POST /api/join': {
        const me = needSession();
        const { code } = await readJson(req);
        const g = [...games.values()].find((game) => game.invite === code);
        if (!g || g.status !== 'waiting') throw new Refusal(404, 'not-found', 'no game waits for this invitation');
        const color = g.seats.black ? 'white' : 'black';
        g.seats[color] = me.id;
        g.players[color] = { kind: 'person', name: me.name };
        g.status = 'live';
        if (g.clocks) g.clocks.running = 'black';
        g.turnStarted = now();
        broadcast(g);
        return send(200, stateFor(g, me));
      }
      case 'POST /api/games/{id}/moves': {
        const g = findGame(id);
        const { move, ply } = await readJson(req);
        await play(g, seatOf(g, needSession()), move, ply);
        return send(200, stateFor(g, session));
      }
      case 'POST /api/games/{id}/resign': {
        const g = findGame(id);
        resign(g, seatOf(g, needSession()));
        return send(200, stateFor(g, session));
      }
      case 'GET /api/games/{id}/sgf': {
        const g = findGame(id);
        const dir = await mkdtemp(join(tmpdir(), 'toroid-stub-'));
        try {
          await toroid(['replay', g.game, ...paramArgs(g.params), ...g.moves, '--save', join(dir, 'game.sgf')]);
          res.writeHead(200, { 'Content-Type': 'application/x-go-sgf', 'Content-Disposition': `attachment; filename="${g.id}.sgf"` });
          return res.end(await readFile(join(dir, 'game.sgf')));
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
      case 'GET /api/games/{id}/analysis':
        return send(200, fakeAnalysis(findGame(id)));
      default:
        throw new Refusal(404, 'not-found', `no route ${req.method} ${path}`);
    }
  }

  function resign(g, color) {
    if (g.status !== 'live') throw new Refusal(409, 'game-over', 'the game is not being played');
    const winner = color === 'black' ? 'white' : 'black';
    finish(g, { winner, reason: 'resignation', text: `${winner} wins by resignation` });
    broadcast(g);
  }

  // Made-up visits that favour a few cells, so that the heat map has something to show.
  function fakeAnalysis(g) {
    const cells = g.position.width * g.position.height;
    const visit_map = new Array(cells).fill(0);
    const moves = g.position.legal_moves.filter((m) => m.length === 2).map((move, i) => {
      const x = move.charCodeAt(0) - 97;
      const y = move.charCodeAt(1) - 97;
      const visits = 1 + ((i * 7919) % 97) * ((x + y) % 3 === 0 ? 5 : 1);
      visit_map[y * g.position.width + x] = visits;
      return { move, visits, win_rate: 0.3 + (visits % 40) / 100, pv: [move] };
    }).sort((a, b) => b.visits - a.visits);
    return { simulations: moves.reduce((n, m) => n + m.visits, 0), moves, visit_map };
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://stub');
    try {
      if (url.pathname.startsWith('/api/')) return await api(req, res, url.pathname, url.searchParams);
      if (req.method === 'GET' && url.pathname.startsWith('/assets/')) {
        const name = url.pathname.slice('/assets/'.length);
        if (!/^[a-z][a-z0-9-]*\.(js|css|svg)$/.test(name)) throw new Refusal(404, 'not-found', 'no such asset');
        const body = await readFile(join(WEB, name)).catch(() => { throw new Refusal(404, 'not-found', 'no such asset'); });
        res.writeHead(200, { 'Content-Type': MIME[extname(name)] });
        return res.end(body);
      }
      if (req.method === 'GET' && (url.pathname === '/' || /^\/(game|join)\/[^/]+$/.test(url.pathname))) {
        res.writeHead(200, { 'Content-Type': MIME['.html'] });
        return res.end(await readFile(join(WEB, 'index.html')));
      }
      throw new Refusal(404, 'not-found', 'no such page');
    } catch (err) {
      const status = err.status || 500;
      if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { code: err.code || 'internal', message: err.message } }));
    }
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const match = /^\/api\/games\/([^/]+)\/ws$/.exec(new URL(req.url, 'http://stub').pathname);
    const g = match && games.get(decodeURIComponent(match[1]));
    if (!g) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      const client = { ws, session: sessionOf(req) };
      if (!sockets.has(g.id)) sockets.set(g.id, new Set());
      sockets.get(g.id).add(client);
      ws.on('close', () => sockets.get(g.id).delete(client));
      ws.on('message', async (data) => {
        const refuse = (err) => ws.send(JSON.stringify({ type: 'error', code: err.code || 'bad-request', message: err.message }));
        try {
          const message = JSON.parse(String(data));
          if (!client.session) throw new Refusal(401, 'no-session', 'sign in first');
          const color = seatOf(g, client.session);
          if (message.type === 'move') await play(g, color, message.move, message.ply);
          else if (message.type === 'resign') resign(g, color);
          else throw new Refusal(400, 'bad-request', `unknown message type '${message.type}'`);
        } catch (err) {
          refuse(err);
        }
      });
      ws.send(JSON.stringify({ type: 'state', game: stateFor(g, client.session) }));
    });
  });

  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { toroid: { type: 'string' }, port: { type: 'string', default: '0' } } });
  if (!values.toroid) {
    console.error('usage: node stub-server.mjs --toroid PATH [--port N]');
    process.exit(2);
  }
  const stub = await startStub(values.toroid, Number(values.port));
  console.log(`listening on ${stub.url}`);
}
