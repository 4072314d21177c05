// The server's HTTP API and game WebSocket (the contract in the server crate's docs).

/** A refusal from the server: `code` is the kebab-case error code of the API. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, 'network', `the server cannot be reached (${err.message})`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: only an error can be worth reporting, with the status line.
  }
  if (!response.ok) {
    const error = data && data.error;
    throw new ApiError(
      response.status,
      (error && error.code) || 'http-' + response.status,
      (error && error.message) || `${response.status} ${response.statusText}`,
    );
  }
  return data;
}

// The cookie the server sets beside the (HttpOnly) session cookie, for scripts to read.
const SIGNED_IN = 'toroid_signed_in';

const gamePath = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  /**
   * The signed-in session `{id, name, account, role}` (a guest's or an account's), or null. Asked
   * only when the server has set the session's readable companion cookie, so that a first
   * visit makes no request that fails.
   */
  async session() {
    if (!document.cookie.split('; ').includes(`${SIGNED_IN}=1`)) return null;
    try {
      return await request('GET', '/api/session');
    } catch (err) {
      if (err.status !== 401) throw err;
      document.cookie = `${SIGNED_IN}=; Max-Age=0; Path=/`; // expired: stop asking
      return null;
    }
  },
  /** A guest session (no password), or a sign-in to the account of this name. */
  signIn: (name, password) => request('POST', '/api/session', password === undefined ? { name } : { name, password }),
  signOut: () => request('DELETE', '/api/session'),
  /** Claims `name` with `password`; a guest's session becomes the account's. */
  createAccount: (name, password) => request('POST', '/api/accounts', { name, password }),
  leaderboard: (game) => request('GET', `/api/leaderboard/${encodeURIComponent(game)}`),
  player: (name) => request('GET', `/api/players/${encodeURIComponent(name)}`),
  tournaments: (limit) => request('GET', `/api/tournaments?limit=${limit}`),
  tournament: (id) => request('GET', `/api/tournaments/${encodeURIComponent(id)}`),
  createTournament: (spec) => request('POST', '/api/tournaments', spec),
  joinTournament: (id) => request('POST', `/api/tournaments/${encodeURIComponent(id)}/join`),
  startTournament: (id) => request('POST', `/api/tournaments/${encodeURIComponent(id)}/start`),
  rules: () => request('GET', '/api/rules'),
  rulesHelp: (game) => request('GET', `/api/rules/${encodeURIComponent(game)}/help`),
  levels: () => request('GET', '/api/levels'),
  /** The house levels that play `game` (`zero` only where the rule set has a network). */
  levelsOf: (game) => request('GET', `/api/levels/${encodeURIComponent(game)}`),
  games: (status, limit) =>
    request('GET', `/api/games?status=${encodeURIComponent(status)}&limit=${limit}`),
  /** The asker's own games, newest first, whatever their status. */
  myGames: (limit) => request('GET', `/api/games?mine=true&limit=${limit}`),
  game: (id) => request('GET', gamePath(id)),
  gameRatings: (id) => request('GET', gamePath(id) + '/ratings'),
  review: (id) => request('GET', gamePath(id) + '/review'),
  follows: () => request('GET', '/api/follows'),
  follow: (name) => request('PUT', `/api/follows/${encodeURIComponent(name)}`),
  unfollow: (name) => request('DELETE', `/api/follows/${encodeURIComponent(name)}`),
  lessons: (game) => request('GET', `/api/rules/${encodeURIComponent(game)}/lessons`),
  answerLesson: (game, n, move) => request('POST', `/api/rules/${encodeURIComponent(game)}/lessons/${n}`, { move }),
  requestReview: (id) => request('POST', gamePath(id) + '/review'),
  puzzlePools: () => request('GET', '/api/puzzles'),
  nextPuzzle: (game, skip) => request('GET', `/api/puzzles/next?game=${encodeURIComponent(game)}&skip=${encodeURIComponent(skip || '')}`),
  puzzle: (id) => request('GET', `/api/puzzles/${encodeURIComponent(id)}`),
  attemptPuzzle: (id, move) => request('POST', `/api/puzzles/${encodeURIComponent(id)}/attempt`, { move }),
  gamePuzzles: (id) => request('GET', gamePath(id) + '/puzzles'),
  topology: (id) => request('GET', gamePath(id) + '/topology'),
  history: (id) => request('GET', gamePath(id) + '/history'),
  create: (spec) => request('POST', '/api/games', spec),
  /** The game an invite code opens, as anyone sees it (before joining). */
  invitation: (code) => request('GET', `/api/invites/${encodeURIComponent(code)}`),
  /** Takes the open seat of the invite game whose code this is; its GameState. */
  join: (code) => request('POST', '/api/join', { code }),
  /** Takes the open seat of an open game (no code). */
  joinOpen: (id) => request('POST', gamePath(id) + '/join', {}),
  /** Quick pairing: `{game, clock}` → the game joined or the open one waited in. */
  pool: (spec) => request('POST', '/api/pool', spec),
  /** A new invite link for the waiting game its creator made; the old one stops working. */
  newInvite: (id) => request('POST', gamePath(id) + '/invite'),
  move: (id, move, ply) => request('POST', gamePath(id) + '/moves', { move, ply }),
  /** A player's action (`takeback`, `rematch`, `decline-rematch`, …); the GameState after it. */
  act: (id, action) => request('POST', `${gamePath(id)}/${action}`),
  /** Challenges to a player by name: `{to, game, params, clock, color, rated, wait_s}`. */
  challenge: (spec) => request('POST', '/api/challenges', spec),
  challenges: () => request('GET', '/api/challenges'),
  acceptChallenge: (id) => request('POST', `/api/challenges/${encodeURIComponent(id)}/accept`),
  declineChallenge: (id) => request('POST', `/api/challenges/${encodeURIComponent(id)}/decline`, {}),
  withdrawChallenge: (id) => request('DELETE', `/api/challenges/${encodeURIComponent(id)}`),
  /** Marks, accepts or disputes dead stones: `toggle-dead` {point}, `accept-dead` {dead}, `resume-play`. */
  count: (id, type, body) => request('POST', `${gamePath(id)}/${type}`, body),
  analysis: (id, ms) => request('GET', `${gamePath(id)}/analysis?ms=${ms}`),
  sgfUrl: (id) => gamePath(id) + '/sgf',
  /** Reports `{player}` or `{chat_line}` (an id) to the moderators, for `reason`. */
  report: (about, reason) => request('POST', '/api/reports', { ...about, reason }),
  blocks: () => request('GET', '/api/blocks'),
  block: (name) => request('PUT', `/api/blocks/${encodeURIComponent(name)}`),
  unblock: (name) => request('DELETE', `/api/blocks/${encodeURIComponent(name)}`),
  changePassword: (current, next) => request('PUT', '/api/account/password', { current, new: next }),
  /** The acts and lists of moderators and admins (`/api/admin`). */
  admin: {
    reports: (all) => request('GET', `/api/admin/reports${all ? '?all=true' : ''}`),
    resolve: (id) => request('POST', `/api/admin/reports/${encodeURIComponent(id)}/resolve`),
    accounts: () => request('GET', '/api/admin/accounts'),
    chatBy: (name) => request('GET', `/api/admin/players/${encodeURIComponent(name)}/chat`),
    deleteChat: (id) => request('DELETE', `/api/admin/chat/${encodeURIComponent(id)}`),
    hideGame: (id) => request('DELETE', `/api/admin/games/${encodeURIComponent(id)}`),
    cancelTournament: (id) => request('POST', `/api/admin/tournaments/${encodeURIComponent(id)}/cancel`),
    ban: (name) => request('PUT', `/api/admin/accounts/${encodeURIComponent(name)}/ban`),
    unban: (name) => request('DELETE', `/api/admin/accounts/${encodeURIComponent(name)}/ban`),
  },
};

/**
 * A WebSocket to `path` that reconnects by itself, waiting `first` ms then twice as long each
 * time up to `most`, until `close()`, or once the server closed it with a code in `final`.
 * `onMessage(message)` gets each JSON message, `onStatus(open)` each change of the link.
 */
function reconnecting(path, { onMessage, onStatus = () => {}, first, most, final = [] }) {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
  let socket = null;
  let closed = false;
  let delay = first;
  let timer = null;

  function connect() {
    socket = new WebSocket(url);
    socket.addEventListener('open', () => {
      delay = first;
      onStatus(true);
    });
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // Not ours to interpret.
      }
      onMessage(message);
    });
    socket.addEventListener('close', (event) => {
      onStatus(false);
      if (closed || final.includes(event.code)) return;
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, most);
    });
  }
  connect();

  return {
    /** Sends a message; false when the link is down (the caller falls back to HTTP). */
    send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (socket) socket.close();
    },
  };
}

/**
 * The signed-in person's news (GET /api/me/ws): `onMessage(message)` for each, `{type:
 * 'challenge'|'game-started'|'your-turn'|'reminder'|'tournament', …}`. It reconnects by
 * itself until `close()`, and gives up when the session has ended (close code 4401).
 */
/** The house levels that play `game` (`zero` only where the rule set has a network), once
 * `select` still shows `game`; null when the answer came late or not at all. */
export async function levelsPlaying(game, select) {
  try {
    const playing = await api.levelsOf(game);
    return select.value === game ? playing : null;
  } catch {
    return null;
  }
}

export function openNewsSocket(onMessage) {
  return reconnecting('/api/me/ws', { onMessage, first: 1000, most: 30_000, final: [4401] });
}

/**
 * The live connection to one game: `onState(GameState)` after every change, `onError(code,
 * message)` for a refused message, `onChat(room, lines)` with the chat room's latest lines
 * on connecting and then each new line, `onPresence(claimInMs)` to a player when the opponent
 * leaves or comes back, `onStatus(open)` when the link goes up or down. It
 * reconnects by itself (the server sends the state on connect) until `close()`.
 */
export function openGameSocket(id, { onState, onError, onChat, onStatus, onPresence }) {
  const onMessage = (message) => {
    if (message.type === 'state') onState(message.game);
    else if (message.type === 'error') onError(message.code, message.message);
    else if (message.type === 'chat') onChat(message.room, message.lines);
    else if (message.type === 'presence') onPresence(message.claim_in_ms);
  };
  return reconnecting(`${gamePath(id)}/ws`, { onMessage, onStatus, first: 500, most: 8000 });
}
