// The game page: the board live over the WebSocket, clocks, move list, the players' buttons,
// the result, analysis, and replay of any earlier ply.
//
// Every board received live is kept; the others come from the server's history of the game
// (every board as the rules made it), asked for once when replay first needs one. The page
// knows no rules of its own.

import { notify } from './notify.js';
import { api, openGameSocket } from './api.js';
import { BoardView } from './board.js';
import { h, replaceChildren } from './dom.js';
import { clockText, colorName, otherColor, paramsText, playerHref, playerLabel, resultText } from './format.js';
import { reportForm } from './moderation.js';
import { CellNames } from './coords.js';
import { Review } from './review.js';
import { rulesPanel } from './rules.js';
import { Geometry } from './geometry.js';

const ANALYSIS_MS = 500;
// What the board's coloured seams and arrows mean, by surface.
const SURFACES = {
  torus: 'A torus: the left and right sides are glued, and so are the top and bottom.',
  cylinder: 'A cylinder: the left and right sides are glued.',
  mobius: 'A Möbius strip: the left and right sides are glued in reverse (opposite arrows), '
    + 'so leaving on the left of one row comes back on the right of the mirrored row.',
  klein: 'A Klein bottle: the left and right sides are glued, the top and bottom in reverse '
    + '(opposite arrows), so leaving at the top of one column comes back at the bottom of the mirrored column.',
  'projective-plane': 'A projective plane: opposite sides are glued in reverse (opposite arrows), '
    + 'so leaving at the top of one column comes back at the bottom of the mirrored column.',
};
const GHOSTS_KEY = 'toroid.ghosts';
const SOUND_KEY = 'toroid.sound';
const CHAT_KEY = 'toroid.chat';
const CHAT_CHARS = 280; // the server's limit on a line
// The server's refusals of a chat line, in the page's words.
const CHAT_REFUSALS = {
  'rate-limited': 'You are sending lines too fast: wait a moment.',
  'not-a-player': 'Choose a name in the lobby to chat.',
};

/**
 * Shows game `id` in `root`; `navigate(path)` opens another page (a rematch). Returns a
 * function that tears it down.
 */
export async function showGame(root, id, navigate, session) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading the game…'));
  let first;
  let topology;
  try {
    [first, topology] = await Promise.all([api.game(id), api.topology(id)]);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `This game cannot be shown: ${err.message}`),
      h('p', null, h('a', { href: '/' }, 'Back to the lobby')));
    return () => {};
  }
  const page = new GamePage(root, first, topology, navigate, session);
  return () => page.dispose();
}

class GamePage {
  constructor(root, state, topology, navigate, session) {
    const view = state.position;
    this.id = state.id;
    this.navigate = navigate;
    this.session = session;
    this.geometry = new Geometry(view, topology);
    this.toBoard = (rows) => this.geometry.cells.map(([x, y]) => rows[y][x]);
    this.kind = state.game;
    this.names = new CellNames(state.game, view.width, view.height);
    this.board = new BoardView(this.geometry, (move) => this.play(move), {
      names: this.names,
      onRefuse: (move) => this.refuseClick(move),
      onCursor: (move) => this.describeCell(move),
    });
    this.seen = new Map(); // ply -> board received from the server
    this.history = null; // the server's boards, captures, scores and clocks of every ply, asked for when first needed
    this.loadingHistory = false;
    this.viewPly = null; // null: follow the game live
    this.shown = null; // the board on screen, to animate the next change
    this.shownPly = null; // and its ply: only one step forward is animated
    this.pending = null;
    this.analysis = null;
    this.analysing = false;
    this.receivedAt = performance.now();
    this.build(root);
    this.apply(state);
    this.chatIds = new Set();
    this.chatSent = false; // a line on its way: a refusal now is about it
    this.socket = openGameSocket(this.id, {
      onState: (s) => this.apply(s, true),
      onError: (code, message) => this.refused(code, message),
      onChat: (room, lines) => this.heard(room, lines),
      onPresence: (claimInMs) => this.presence(claimInMs),
      onStatus: (open) => this.linkChanged(open),
    });
    this.ticker = setInterval(() => this.tick(), 200);
    // The arrow keys, Home and End step through the moves wherever the focus is, but in a
    // field (the board keeps the arrows it moves its cursor with).
    this.keys = (event) => {
      if (event.target.closest('input, select, textarea') || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = { ArrowLeft: () => this.currentPly() - 1, ArrowRight: () => this.currentPly() + 1,
        Home: () => 0, End: () => this.lastPly() }[event.key];
      if (!target) return;
      event.preventDefault();
      this.seek(target());
    };
    document.addEventListener('keydown', this.keys);
  }

  // A move in flight when the link drops may or may not have arrived: the state sent on
  // reconnecting tells, so the page stops waiting for an answer.
  linkChanged(open) {
    // In words, not by colour alone.
    this.link.classList.toggle('down', !open);
    this.linkText.textContent = open ? 'connected' : 'reconnecting…';
    this.link.title = open ? 'connected: the game updates live' : 'the connection dropped; reconnecting…';
    if (!open && this.pending) {
      this.pending = null;
      this.showInfo();
      this.showPosition();
    }
  }

  dispose() {
    this.review.dispose();
    document.removeEventListener('keydown', this.keys);
    this.socket.close();
    if (this.audio) this.audio.close();
    clearInterval(this.ticker);
  }

  build(root) {
    const button = (label, cls, onclick, aria) =>
      h('button', { type: 'button', class: cls, onclick, 'aria-label': aria || label }, label);
    this.title = h('h1', { class: 'game-title' });
    this.players = h('p', { class: 'players' });
    this.tournamentLink = h('p', { class: 'tournament-link', hidden: true });
    this.link = h('span', { class: 'link', title: 'connecting…', 'aria-hidden': 'true' });
    this.linkText = h('span', { class: 'link-text', role: 'status' }, 'connecting…');
    this.status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.result = h('p', { class: 'result', hidden: true, role: 'status' });
    // A clocked game nobody has begun is aborted after a wait: the count down, in words.
    this.firstMove = h('p', { class: 'first-move', hidden: true });
    this.invite = h('div', { class: 'invite', hidden: true });
    // A waiting game: its creator may withdraw an open one; anyone else may join it.
    this.waiting = h('div', { class: 'waiting', hidden: true, role: 'status' });
    this.clocks = { black: clockBox('black'), white: clockBox('white') };
    this.score = h('p', { class: 'score' });
    this.passButton = button('Pass', 'pass', () => this.play('pass'), 'Pass (play no stone)');
    this.endButton = button('End turn', 'end-turn', () => this.play('end'), 'End the turn after one placement');
    this.swapButton = button('Swap', 'swap', () => this.play('swap'), "Swap: take over black's first stone (pie rule)");
    this.resignButton = button('Resign', 'resign danger', () => this.resign());
    this.takebackButton = button('Take back', 'takeback', () => this.act('takeback'), 'Ask to take back your last move');
    this.drawButton = button('Offer draw', 'offer-draw', () => this.act('draw'), 'Offer draw to your opponent');
    this.abortButton = button('Abort', 'abort', () => this.act('abort'), 'Abort the game without a result (before both sides have moved)');
    // An opponent who left may be beaten by a claim once the server's grace time has passed.
    this.claimText = h('span', { class: 'claim-text' });
    this.claimButton = button('Claim victory', 'claim-victory primary', () => this.act('claim-victory'), 'Claim victory: your opponent left');
    this.claim = h('div', { class: 'claim', hidden: true, role: 'status' }, this.claimText, ' ', this.claimButton);
    this.claimIn = null; // {ms, at}: the server's last word on the opponent's absence
    this.ratings = null; // GET /api/games/{id}/ratings, for a rated game
    // Standing offers: a takeback asked for, a rematch offered, and the answers to them.
    this.offers = h('div', { class: 'offers', hidden: true, role: 'status', 'aria-live': 'polite' });
    this.moveInput = h('input', { id: 'move-text', name: 'move', autocomplete: 'off', size: 6, placeholder: this.names.example() });
    this.moveForm = h('form', { class: 'move-entry', onsubmit: (e) => { e.preventDefault(); this.play(this.names.parse(this.moveInput.value)); } },
      h('label', { for: 'move-text' }, 'Move'), this.moveInput, h('button', { type: 'submit' }, 'Play'));
    this.error = h('p', { class: 'error', role: 'alert' });
    // While an earlier position of a live game is shown: where the player is, and the way
    // back (a tap on the board would otherwise do nothing).
    this.behind = h('div', { class: 'behind', hidden: true, role: 'status' },
      h('span', { class: 'behind-text' }),
      button('Back to the game', 'back-to-game', () => this.seek(this.lastPly())));
    this.afterGame = h('div', { class: 'after-game', hidden: true });
    this.cursorNote = h('p', { class: 'sr-only cursor-note', 'aria-live': 'polite' });
    const ghostsOn = remembered(GHOSTS_KEY) !== 'off';
    this.board.setGhosts(ghostsOn && this.geometry.wraps);
    // The legend says what the board shows: the faded copies only while they are drawn.
    this.ghostNote = h('span', { class: 'ghost-note', hidden: !(ghostsOn && this.geometry.wraps) },
      ' Faded cells are copies of the cells across a seam.');
    const ghostToggle = this.geometry.wraps
      ? toggle('ghosts', 'Ghosts: show the cells across the seams', ghostsOn, (on) => {
        remember(GHOSTS_KEY, on ? 'on' : 'off');
        this.board.setGhosts(on);
        this.ghostNote.hidden = !on;
      }).el
      : null;
    this.soundToggle = toggle('sound', 'Sound when a move arrives', remembered(SOUND_KEY) !== 'off',
      (on) => remember(SOUND_KEY, on ? 'on' : 'off'));
    this.sounds = 0;
    this.chatToggle = toggle('chat', 'Chat', remembered(CHAT_KEY) !== 'off', (on) => {
      remember(CHAT_KEY, on ? 'on' : 'off');
      this.showChat();
    });
    this.chatToggle.el.hidden = true; // until the server says the game has a chat
    this.chatTitle = h('h2', null, 'Chat');
    this.chatLog = h('ol', { class: 'chat-log', 'aria-label': 'chat lines', 'aria-live': 'polite' });
    this.chatInput = h('input', { id: 'chat-text', name: 'chat', maxlength: CHAT_CHARS, autocomplete: 'off', placeholder: 'Say something' });
    this.chatError = h('p', { class: 'error chat-error', role: 'alert' });
    this.chatBox = h('section', { class: 'chat', hidden: true, 'aria-labelledby': 'chat-title' },
      this.chatTitle,
      this.chatLog,
      h('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.say(); } },
        h('label', { for: 'chat-text', class: 'sr-only' }, 'Chat line'), this.chatInput,
        h('button', { type: 'submit' }, 'Send')),
      this.chatError);
    this.chatTitle.id = 'chat-title';
    this.analysisToggle = toggle('analysis', "Analysis: the bot's thinking as a heat map", false, () => this.refreshAnalysis());
    this.analysisPanel = h('div', { class: 'analysis-panel', 'aria-live': 'polite' });
    // A finished game's review by the house engine (review.js).
    this.review = new Review(this.id, this.names, (ply) => this.seek(ply), !!this.session);
    this.review.onChange = () => {
      this.showMoves();
      this.review.show(this.currentPly());
    };
    this.moveList = h('ol', { class: `moves${this.kind === 'ctor' ? ' grouped' : ''}`, 'aria-label': 'moves' });
    this.slider = h('input', { type: 'range', min: 0, max: 0, value: 0, class: 'ply-slider', 'aria-label': 'position after move', oninput: () => this.seek(Number(this.slider.value)) });
    this.plyLabel = h('span', { class: 'ply-label' });
    const step = (label, aria, target) => button(label, 'step', () => this.seek(target()), aria);
    const replay = h('div', { class: 'replay' },
      step('|◀', 'first position', () => 0),
      step('◀', 'previous move', () => this.currentPly() - 1),
      this.slider,
      step('▶', 'next move', () => this.currentPly() + 1),
      step('▶|', 'last position', () => this.lastPly()),
      this.plyLabel);
    // Large boards can be zoomed, and panned when wider than the screen.
    this.zoom = 1;
    this.boardScroll = h('div', { class: 'board-scroll' }, this.board.svg);
    const zoomButton = (label, aria, factor) => button(label, 'zoom-step', () => this.setZoom(this.zoom * factor), aria);
    const zoom = h('div', { class: 'zoom' }, zoomButton('−', 'Zoom out', 1 / 1.25), zoomButton('+', 'Zoom in', 1.25));
    this.setZoom(1);
    replaceChildren(root, h('section', { class: 'game' },
      h('div', { class: 'board-area' }, this.boardScroll, zoom, this.cursorNote, this.behind, replay, this.review.graph,
        SURFACES[this.geometry.surface]
          ? h('p', { class: 'legend' }, SURFACES[this.geometry.surface], this.ghostNote)
          : null),
      h('aside', { class: 'panel' },
        this.title, this.players, this.tournamentLink, rulesPanel(this.kind),
        h('div', { class: 'status-line' }, this.link, this.linkText, this.status),
        this.firstMove,
        this.result, this.afterGame, this.offers, this.invite, this.waiting,
        h('div', { class: 'clocks' }, this.clocks.black.el, this.clocks.white.el),
        this.score,
        h('div', { class: 'actions' }, this.passButton, this.endButton, this.swapButton, this.takebackButton,
          this.drawButton, this.abortButton, this.resignButton),
        this.claim,
        this.moveForm, this.error,
        h('div', { class: 'toggles' }, ghostToggle, this.soundToggle.el, this.chatToggle.el, this.analysisToggle.el,
          h('a', { href: api.sgfUrl(this.id), download: `toroid-${this.id}.sgf`, class: 'sgf' }, 'Download SGF')),
        this.analysisPanel,
        this.review.panel,
        this.chatBox,
        h('h2', null, 'Moves'), this.moveList)));
  }

  // The board's width: at least 36 px a cell on hexagons (a finger's width), times the zoom;
  // a board wider than the screen pans.
  setZoom(zoom) {
    this.zoom = Math.min(4, Math.max(1, zoom));
    const least = this.geometry.hex ? `${(this.board.unitsWide() * 36).toFixed(0)}px` : '0px';
    this.board.svg.style.width = `calc(max(100%, ${least}) * ${this.zoom.toFixed(3)})`;
    // Unzoomed, the board fits the window's height (19×19 in an 800 px screen); zoomed, it
    // grows and pans.
    this.board.svg.style.maxHeight = this.zoom > 1 ? 'none' : '';
    this.boardScroll.dataset.zoom = this.zoom.toFixed(2);
  }

  lastPly() {
    return this.state.position.ply;
  }

  currentPly() {
    return this.viewPly ?? this.lastPly();
  }

  myTurn() {
    const s = this.state;
    return s.status === 'live' && s.you && s.position.to_move === s.you && !s.counting;
  }

  // A new GameState from the server: on connect and after every change over the socket
  // (in order, so a takeback may shorten the game), or as an HTTP answer (which may be older
  // than a state the socket brought).
  apply(state, live = false) {
    if (!live && this.state && state.position.ply < this.state.position.ply) return;
    if (this.state && state.position.ply < this.state.position.ply) this.tookBack();
    const grew = !this.state || state.position.ply !== this.state.position.ply;
    // A move that someone else made (the opponent's, or any in a game one watches).
    const arrived = this.state && state.position.ply > this.state.position.ply
      && state.position.movers[state.position.ply - 1] !== (state.you && state.you[0]);
    if (arrived && this.soundToggle.input.checked) this.chime();
    // A game one waited in has started: the page says so, and a hidden tab is told.
    if (this.state && this.state.status === 'waiting' && state.status === 'live' && state.you) {
      notify('Your game has started', `${state.game}: you play ${state.you}`, location.pathname);
    }
    this.state = state;
    this.receivedAt = performance.now();
    this.seen.set(state.position.ply, this.toBoard(state.position.board));
    if (this.pending && (state.position.ply > this.pending.ply || state.status !== 'live')) this.pending = null;
    // The tab says when it is the player's move, as lichess's does.
    document.title = this.myTurn() ? `Your move — toroid ${state.game}` : `toroid — ${state.game}`;
    // Both players go to the rematch they agreed on.
    if (state.rematch && state.you && !this.leaving) {
      this.leaving = true;
      this.navigate(`/game/${encodeURIComponent(state.rematch)}`);
      return;
    }
    this.showInfo();
    this.showMoves();
    this.showPosition();
    if (grew || state.status !== 'live') this.refreshAnalysis();
  }

  // Moves were taken back: the boards kept for later plies are no longer the game's.
  tookBack() {
    this.seen.clear();
    this.history = null;
    this.viewPly = null;
    this.shownPly = null;
  }

  showInfo() {
    const s = this.state;
    const view = s.position;
    this.title.textContent = `${s.game} ${view.width}×${view.height}${s.rated ? ' · rated' : ''}`;
    this.title.title = paramsText(s.params);
    // A rated game's players all have pages (guests, who have none, play casual games only).
    const player = (color) => {
      const who = s.players[color];
      const label = playerLabel(who);
      return h('span', { class: `player ${color}` },
        s.rated && who ? h('a', { href: playerHref(who.name) }, label) : label,
        this.ratingText(color));
    };
    this.players.replaceChildren(
      player('black'),
      ' vs ',
      player('white'),
      s.you ? h('span', { class: 'you' }, ` — you play ${s.you}`) : h('span', { class: 'you' }, ' — spectating'));
    this.status.textContent = this.statusText();
    this.tournamentLink.hidden = !s.tournament;
    if (s.tournament && !this.tournamentLink.childElementCount) {
      this.tournamentLink.append('A tournament game: ',
        h('a', { href: `/tournament/${encodeURIComponent(s.tournament)}` }, 'back to the tournament'));
    }
    const over = s.status === 'finished';
    this.loadRatings();
    if (over) this.review.open();
    this.result.hidden = !over;
    this.result.textContent = over ? this.resultLine() : '';
    this.showAfterGame(over);
    const behind = this.viewPly !== null && s.status === 'live';
    this.behind.hidden = !behind;
    if (behind) {
      this.behind.querySelector('.behind-text').textContent =
        `You are looking at move ${this.viewPly} of ${this.lastPly()}.`;
    }
    // Only the creator of a waiting game sits in it (`you`).
    this.invite.hidden = !(s.status === 'waiting' && s.you && !s.open);
    if (!this.invite.hidden && this.invite.dataset.link !== (s.invite || '')) this.showInvite(s.invite);
    this.showWaiting();
    const mine = this.myTurn() && !this.pending;
    const legal = new Set(view.legal_moves);
    this.passButton.hidden = !(mine && legal.has('pass'));
    this.endButton.hidden = !(mine && legal.has('end'));
    this.swapButton.hidden = !(mine && legal.has('swap'));
    this.resignButton.hidden = !(s.you && s.status === 'live');
    this.takebackButton.hidden = !(s.you && s.takebacks && view.movers.includes(s.you[0]) && s.takeback_offer !== s.you);
    const playing = s.you && s.status === 'live' && !s.counting;
    this.drawButton.hidden = !(playing && !s.draw_offer);
    this.abortButton.hidden = !(playing && !s.tournament && !['b', 'w'].every((c) => view.movers.includes(c)));
    this.showOffers();
    this.showChat();
    this.moveForm.hidden = !(s.you && s.status === 'live');
    this.score.textContent = this.scoreLine();
    const hasClock = !!s.clocks;
    for (const color of ['black', 'white']) this.clocks[color].el.hidden = !hasClock;
    this.tick();
  }

  statusText() {
    const s = this.state;
    if (s.status === 'waiting') return 'Waiting for an opponent to join.';
    if (s.status === 'finished') return 'The game is over.';
    if (this.pending) return `Sending ${this.names.label(this.pending.move)}…`;
    const toMove = colorName(s.position.to_move);
    const turn = this.turnText();
    if (this.myTurn()) return `Your move (${toMove})${turn}.`;
    return `${toMove[0].toUpperCase()}${toMove.slice(1)} to move${turn}.`;
  }

  // Where a CTOR turn stands: one or two placements (black's very first turn has one).
  turnText() {
    const view = this.state.position;
    if (view.game !== 'ctor') return '';
    const letter = view.to_move[0];
    let made = 0;
    for (let i = view.ply - 1; i >= 0 && view.movers[i] === letter; i--) made++;
    return `: placement ${made + 1} of ${view.ply === 0 ? 1 : 2}`;
  }

  // Who a waiting game waits for, and what the visitor can do about it.
  showWaiting() {
    const s = this.state;
    const key = s.status === 'waiting' ? `${!!s.you}:${s.open}:${!!this.session}` : '';
    if (this.waiting.dataset.key === key) return;
    this.waiting.dataset.key = key;
    this.waiting.hidden = !key;
    if (!key) return this.waiting.replaceChildren();
    const button = (label, cls, onclick) => h('button', { type: 'button', class: cls, onclick }, label);
    const withdraw = button('Cancel', 'withdraw', () => this.act('withdraw'));
    const join = button('Join this game', 'join primary', async () => {
      try {
        this.apply(await api.joinOpen(this.id));
      } catch (err) {
        this.refused(err.code, err.message);
      }
    });
    const parts = s.you && s.open
      ? [h('span', null, 'Waiting for someone to play: this game is open to anyone, in the lobby. Leave this page and it is withdrawn.'), withdraw]
      : s.you
        ? [h('span', null, 'Waiting for the person you invite.'), withdraw]
        : s.open && this.session
          ? [h('span', null, 'This game is open to anyone.'), join]
          : s.open
            ? [h('span', null, 'This game is open to anyone: '), h('a', { href: '/' }, 'choose a name in the lobby'), ' to join it.']
            : [h('span', null, 'This game waits for the person its creator invited.')];
    this.waiting.replaceChildren(...parts);
  }

  showInvite(path) {
    this.invite.dataset.link = path || '';
    if (!path) {
      // The server keeps only a hash of the code: after a restart the link must be remade.
      const renew = h('button', { type: 'button', class: 'renew' }, 'Make a new invite link');
      renew.addEventListener('click', async () => {
        try {
          this.apply(await api.newInvite(this.id));
        } catch (err) {
          this.refused(err.code, err.message);
        }
      });
      this.invite.replaceChildren(h('p', null, 'The server no longer shows this game\'s invite link. A new link replaces the old one.'), renew);
      return;
    }
    const url = new URL(path, location.origin).href;
    const field = h('input', { class: 'invite-link', readonly: true, value: url, 'aria-label': 'invite link', onfocus: (e) => e.target.select() });
    const copy = h('button', { type: 'button', class: 'copy', 'aria-label': 'Copy the invite link' }, 'Copy');
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = 'Copied';
      } catch {
        field.select(); // No clipboard access: leave it selected for the user to copy.
      }
    });
    this.invite.replaceChildren(h('p', null, 'Send this link to your opponent:'), h('div', { class: 'invite-row' }, field, copy));
  }

  // One line a turn: a turn's moves are those its player made in a row (a CTOR turn's two
  // placements, or one move elsewhere).
  showMoves() {
    const moves = this.state.position.moves;
    const by = this.state.position.movers;
    const current = this.currentPly();
    const turns = [];
    moves.forEach((move, i) => {
      const judged = this.review.judgement(i + 1);
      const button = h('button', {
        type: 'button', class: `move ${by[i]}${i + 1 === current ? ' current' : ''}${judged ? ` ${judged}` : ''}`, onclick: () => this.seek(i + 1),
        'aria-label': `move ${i + 1}, ${colorName(by[i])} ${this.names.label(move)}${judged ? `, ${judged}` : ''}`, dataset: { move },
      }, this.names.label(move) + this.review.mark(i + 1));
      if (i > 0 && by[i] === by[i - 1]) turns[turns.length - 1].push(button);
      else turns.push([button]);
    });
    this.moveList.replaceChildren(...turns.map((buttons) =>
      h('li', { class: buttons.some((b) => b.classList.contains('current')) ? 'current' : null }, ...buttons)));
    // Scroll the list, not the page, to the current move.
    const item = this.moveList.querySelector('.current');
    const list = this.moveList;
    if (item && (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = item.offsetTop - list.clientHeight / 2;
    }
    this.slider.max = this.lastPly();
    this.slider.value = current;
    this.plyLabel.textContent = `${current} / ${this.lastPly()}`;
  }

  /** The board after `ply` moves, or null while the server's history is on its way. */
  boardAt(ply) {
    if (this.seen.has(ply)) return this.seen.get(ply);
    if (this.history && ply < this.history.boards.length) return this.toBoard(this.history.boards[ply]);
    this.loadHistory();
    return null;
  }

  loadHistory() {
    if (this.loadingHistory) return;
    this.loadingHistory = true;
    api.history(this.id)
      .then((history) => { this.history = history; })
      .catch(() => {})
      .finally(() => {
        this.loadingHistory = false;
        if (this.history) {
          this.showPosition();
          this.showInfo();
        }
      });
  }

  showPosition() {
    const view = this.state.position;
    const live = this.viewPly === null;
    const ply = this.currentPly();
    const board = this.boardAt(ply);
    if (!board) return; // drawn when the history arrives
    const lastTurn = lastTurnMoves(view, ply).map((m) => this.geometry.index(m)).filter((i) => i !== undefined);
    const mine = live && this.myTurn() && !this.pending;
    // While the players mark dead stones, each stone is a cell to click.
    const marking = live && this.counting();
    const stones = marking ? new Set(this.geometry.names.filter((_, i) => board[i] !== '.')) : null;
    this.board.render({
      board,
      // A step forward (or, following the game, the moves that came in) shows what changed;
      // any other jump (a step back, a click far away) just shows the position, so nothing
      // false is animated.
      previous: this.shownPly !== null && (ply === this.shownPly || ply === this.shownPly + 1
        || (live && this.shownLive && ply > this.shownPly)) ? this.shown : null,
      last: lastTurn,
      // The dead stones marked (while the players agree on them, and once they have).
      highlight: live ? (this.state.counting ? this.state.counting.dead : view.highlight)
        .map((n) => this.geometry.index(n)).filter((i) => i !== undefined) : [],
      // A finished Go game marks the territory its score counted.
      territory: live && this.state.status === 'finished' && view.territory ? this.toBoard(view.territory) : null,
      legal: marking ? stones : mine ? new Set(view.legal_moves) : null,
      marking,
      toMove: view.to_move === 'white' ? 'w' : 'b',
      heat: live && this.analysisToggle.input.checked && this.analysis ? this.analysis.visit_map : null,
    });
    this.board.svg.dataset.ply = ply;
    this.shown = board;
    this.shownPly = ply;
    this.shownLive = live;
  }

  seek(ply) {
    const last = this.lastPly();
    const target = Math.max(0, Math.min(last, ply));
    this.viewPly = target === last ? null : target;
    this.showMoves();
    this.showPosition();
    this.showInfo();
    this.review.show(this.currentPly());
  }

  async play(move) {
    // While the players agree on dead stones, a click on a stone marks its chain.
    if (move && this.counting() && this.viewPly === null) return this.count({ type: 'toggle-dead', point: move });
    if (!move || !this.myTurn() || this.pending || this.viewPly !== null) return;
    this.send(move);
  }

  // Whether the viewer plays this game and its players agree on dead stones now.
  counting() {
    const s = this.state;
    return !!(s.you && s.status === 'live' && s.counting);
  }

  // A mark, an acceptance or a dispute of the dead stones: over the socket, or over HTTP.
  async count(message) {
    this.error.textContent = '';
    if (this.socket.send(message)) return;
    const { type, ...body } = message;
    try {
      this.apply(await api.count(this.id, type, body));
    } catch (err) {
      this.refused(err.code, err.message);
    }
  }

  async send(move) {
    const ply = this.state.position.ply;
    this.pending = { move, ply };
    this.error.textContent = '';
    this.moveInput.value = '';
    this.showInfo();
    this.showPosition();
    if (this.socket.send({ type: 'move', move, ply })) return;
    try {
      this.apply(await api.move(this.id, move, ply));
    } catch (err) {
      this.refused(err.code, err.message);
    }
  }

  async resign() {
    const button = this.resignButton;
    if (!button.classList.contains('confirm')) {
      // A second click within a few seconds confirms: no modal dialog to get in the way.
      button.classList.add('confirm');
      button.textContent = 'Really resign?';
      setTimeout(() => {
        button.classList.remove('confirm');
        button.textContent = 'Resign';
      }, 4000);
      return;
    }
    button.classList.remove('confirm');
    button.textContent = 'Resign';
    this.act('resign');
  }

  // What is on the keyboard cursor's cell, for screen readers.
  describeCell(move) {
    const stone = { b: 'a black stone', w: 'a white stone' }[this.boardAt(this.currentPly())?.[this.geometry.index(move)]];
    const playable = this.myTurn() && this.viewPly === null && this.state.position.legal_moves.includes(move);
    this.cursorNote.textContent = `${this.names.label(move)}: ${stone || 'empty'}${playable ? ', you can play here' : ''}`;
  }

  // The score or captures of the position shown: the live ones, or for an earlier position
  // the server's history of them (asked for when first needed).
  scoreLine() {
    const s = this.state;
    if (this.viewPly === null) return scoreText(s.position, s);
    if (!this.history || this.viewPly >= this.history.boards.length) { // none yet, or older than the game
      this.loadHistory();
      return '';
    }
    const then = { ...s.position, captures: this.history.captures[this.viewPly], score: this.history.scores[this.viewPly] };
    return scoreText(then, { ...s, status: 'replay' }, this.viewPly);
  }

  // A short soft tone (Web Audio; silent where the browser allows no sound yet).
  chime() {
    this.sounds++;
    this.soundToggle.el.dataset.played = String(this.sounds);
    try {
      this.audio ||= new AudioContext();
      const [tone, gain, now] = [this.audio.createOscillator(), this.audio.createGain(), this.audio.currentTime];
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.12, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + 0.15);
      tone.connect(gain).connect(this.audio.destination);
      tone.start(now);
      tone.stop(now + 0.15);
    } catch {
      // No audio here: the move shows all the same.
    }
  }

  // The server's refusal, in its words (the code stays out of sight, on the element).
  refused(code, message) {
    if (this.chatSent && !this.pending) {
      this.chatSent = false;
      this.chatError.dataset.code = code;
      this.chatError.textContent = CHAT_REFUSALS[code] || message;
      return;
    }
    this.pending = null;
    this.error.dataset.code = code;
    this.error.textContent = this.names.go ? message.replace(/'([a-z]{2})'/g, (_, m) => this.names.label(m)) : message;
    this.showInfo();
    this.showPosition();
  }

  // A click on a cell that cannot be played now: why not, in words. An empty cell the page
  // cannot judge (ko, suicide, a rule set's own limits) goes to the server, which says why.
  refuseClick(move) {
    const s = this.state;
    if (!s.you || s.status !== 'live' || this.pending) return;
    this.error.dataset.code = '';
    if (this.viewPly !== null) {
      this.error.textContent = 'This is an earlier position: go back to the game to play.';
    } else if (!this.myTurn()) {
      this.error.textContent = `It is ${colorName(s.position.to_move)}'s move: wait for your turn.`;
    } else if (this.boardAt(this.lastPly())[this.geometry.index(move)] !== '.') {
      this.error.textContent = `${this.names.label(move)} is taken: choose an empty point.`;
    } else {
      this.send(move);
    }
  }

  // A takeback or a rematch waiting for an answer: who asked, and the buttons to answer.
  showOffers() {
    const s = this.state;
    const you = s.you;
    const them = you && otherColor(you);
    const act = (label, cls, action) => h('button', { type: 'button', class: cls, onclick: () => this.act(action) }, label);
    let parts = [];
    if (s.status === 'live' && s.counting) {
      const c = s.counting;
      const ifAccepted = c.result ? resultText(c.result) : '';
      const text = you
        ? `Two passes: mark the dead stones (select a stone to mark its chain dead or alive), then accept. If both accept: ${ifAccepted}.`
        : `The players are marking the dead stones. If both accept: ${ifAccepted}.`;
      parts = [h('span', { class: 'counting-text' }, text)];
      if (you) {
        parts.push(c.accepted[you]
          ? h('span', null, c.accepted[them] ? '' : ' You accept: waiting for your opponent.')
          : h('button', { type: 'button', class: 'accept-dead primary', onclick: () => this.count({ type: 'accept-dead', dead: c.dead }) }, 'Accept'),
        h('button', { type: 'button', class: 'resume-play', onclick: () => this.count({ type: 'resume-play' }) }, 'Resume play'));
      }
    } else if (you && s.status === 'live' && s.draw_offer === them) {
      parts = [h('span', null, 'Your opponent offers a draw.'),
        act('Accept', 'accept-draw primary', 'draw'), act('Decline', 'decline-draw', 'decline-draw')];
    } else if (you && s.status === 'live' && s.draw_offer === you) {
      parts = [h('span', null, 'You offered a draw: waiting for your opponent.'),
        act('Cancel', 'cancel-draw', 'decline-draw')];
    } else if (!you && s.status === 'live' && s.draw_offer) {
      parts = [h('span', null, `${colorName(s.draw_offer)[0].toUpperCase()}${colorName(s.draw_offer).slice(1)} offers a draw.`)];
    } else if (you && s.status === 'live' && s.takeback_offer === them) {
      parts = [h('span', null, 'Your opponent asks to take back their last move.'),
        act('Accept', 'accept-takeback primary', 'takeback'), act('Decline', 'decline-takeback', 'decline-takeback')];
    } else if (you && s.status === 'live' && s.takeback_offer === you) {
      parts = [h('span', null, 'You asked to take back your last move: waiting for your opponent.'),
        act('Cancel', 'cancel-takeback', 'decline-takeback')];
    } else if (you && s.status === 'finished' && !s.rematch && s.rematch_offer === them) {
      parts = [h('span', null, 'Your opponent offers a rematch.'),
        act('Accept', 'accept-rematch primary', 'rematch'), act('Decline', 'decline-rematch', 'decline-rematch')];
    } else if (you && s.status === 'finished' && !s.rematch && s.rematch_offer === you) {
      parts = [h('span', null, 'You offered a rematch: waiting for your opponent.'),
        act('Cancel', 'cancel-rematch', 'decline-rematch')];
    } else if (!you && s.rematch) {
      parts = [h('a', { href: `/game/${encodeURIComponent(s.rematch)}`, class: 'rematch-link' }, 'Watch the rematch')];
    }
    const key = JSON.stringify([s.status, s.draw_offer, s.takeback_offer, s.rematch_offer, s.rematch, s.counting]);
    if (this.offers.dataset.key === key) return;
    this.offers.dataset.key = key;
    this.offers.replaceChildren(...parts);
    this.offers.hidden = parts.length === 0;
  }

  // The viewer's opponent (`{kind, name}`), if the viewer plays.
  opponent() {
    const s = this.state;
    return s.you && s.players[otherColor(s.you)];
  }

  // A player's action (resign, takebacks, rematches): over the socket, or over HTTP when it
  // is down.
  async act(action) {
    this.error.textContent = '';
    if (this.socket.send({ type: action })) return;
    try {
      this.apply(await api.act(this.id, action));
    } catch (err) {
      this.refused(err.code, err.message);
    }
  }

  // The chat room's lines from the server: the latest on connecting, then each new one.
  heard(room, lines) {
    if (this.chatRoom !== room) {
      this.chatRoom = room;
      this.chatTitle.textContent = room === 'players' ? 'Chat with your opponent' : "Spectators' chat";
      this.showChat();
    }
    for (const line of lines) {
      if (this.chatIds.has(line.id)) continue;
      this.chatIds.add(line.id);
      this.chatSent = false;
      this.chatLog.append(this.chatLine(line));
    }
    this.chatLog.scrollTop = this.chatLog.scrollHeight;
  }

  // A chat line; another person's may be reported, and its author blocked.
  chatLine(line) {
    const item = h('li', { class: 'chat-line' }, h('span', { class: 'author' }, line.author), ' ', h('span', { class: 'text' }, line.text));
    if (this.session && line.author !== this.session.name) {
      const open = h('button', {
        type: 'button', class: 'report-line', title: 'Report or block', 'aria-label': `Report ${line.author}'s line or block ${line.author}`,
        onclick: () => {
          open.hidden = true;
          const form = reportForm(line.author, { chat_line: line.id }, () => { form.remove(); open.hidden = false; });
          item.append(form);
          form.querySelector('input').focus();
        },
      }, '⚑');
      item.append(' ', open);
    }
    return item;
  }

  // The chat shows once the server has sent its room, unless turned off; a player talks
  // only to a person (bots read no chat), spectators always to each other.
  showChat() {
    const opponent = this.opponent();
    const listener = this.chatRoom === 'spectators' || (opponent && opponent.kind === 'person');
    this.chatToggle.el.hidden = !this.chatRoom || !listener;
    this.chatBox.hidden = this.chatToggle.el.hidden || !this.chatToggle.input.checked;
  }

  say() {
    const text = this.chatInput.value.trim();
    if (!text) return;
    this.chatError.textContent = '';
    if (!this.socket.send({ type: 'chat', text })) {
      this.chatError.textContent = 'Not connected: the line was not sent.';
      return;
    }
    this.chatSent = true;
    this.chatInput.value = '';
  }

  // "You won" or "You lost" for the players, who won for others; then how.
  resultLine() {
    const s = this.state;
    const how = resultText(s.result) || s.position.reason_text;
    const winner = s.result && s.result.winner;
    if (s.result && s.result.reason === 'abort') return `Aborted, no result — ${how}`;
    if (!s.you) return how;
    if (winner === 'draw' || !winner) return `Draw — ${how}`;
    return winner === s.you ? `You won — ${how}` : `You lost — ${how}`;
  }

  // After the game: a rematch (against a house bot at once, with the colours swapped), a
  // new game of the same rule set, and the lobby.
  showAfterGame(over) {
    this.afterGame.hidden = !over;
    if (!over || this.afterGame.childElementCount) return;
    const s = this.state;
    const opponent = this.opponent();
    // A person is offered the rematch; a house bot plays it at once.
    const offer = opponent && opponent.kind === 'person' ? () => this.act('rematch') : null;
    const house = opponent && opponent.kind === 'house' ? () => this.rematch(opponent.name) : null;
    const rematch = offer || house
      ? h('button', { type: 'button', class: 'rematch primary', onclick: offer || house }, 'Rematch')
      : null;
    replaceChildren(this.afterGame, rematch,
      h('a', { class: 'button', href: `/?game=${encodeURIComponent(s.game)}` }, 'New game'),
      h('a', { class: 'button', href: '/' }, 'Back to the lobby'));
  }

  async rematch(level) {
    const s = this.state;
    try {
      const game = await api.create({
        game: s.game,
        params: s.params,
        clock: s.clock,
        opponent: { kind: 'house', level },
        color: otherColor(s.you),
        rated: s.rated,
      });
      this.navigate(`/game/${encodeURIComponent(game.id)}`);
    } catch (err) {
      this.refused(err.code, err.message);
    }
  }

  // Counts the running clock down from the time the last state was received.
  tick() {
    this.showClaim();
    const clocks = this.state.clocks;
    if (!clocks) return;
    const elapsed = performance.now() - this.receivedAt;
    const wait = this.state.first_move_ms;
    this.firstMove.hidden = wait === null || wait === undefined;
    if (!this.firstMove.hidden) {
      const seconds = Math.max(0, Math.ceil((wait - elapsed) / 1000));
      const who = colorName(this.state.position.to_move);
      this.firstMove.textContent = this.myTurn()
        ? `Make your first move within ${seconds} s, or the game is aborted without a result.`
        : `${who[0].toUpperCase()}${who.slice(1)} has ${seconds} s to make a first move, or the game is aborted without a result.`;
    }
    // An earlier position shows the clocks as they were after its move, stopped.
    const then = this.viewPly !== null && this.history && this.history.clocks ? this.history.clocks[this.viewPly] ?? null : null;
    for (const color of ['black', 'white']) {
      const running = !then && clocks.running === color && this.state.status === 'live';
      const left = then ? then[color] : clocks[`${color}_ms`] - (running ? elapsed : 0);
      const box = this.clocks[color];
      box.time.textContent = clockText(left);
      box.el.classList.toggle('running', running);
      box.el.classList.toggle('low', left < 10_000);
    }
  }

  // The server says at each ping whether the opponent has left, and when a claim is allowed.
  presence(claimInMs) {
    this.claimIn = claimInMs === null || claimInMs === undefined ? null : { ms: claimInMs, at: performance.now() };
    this.showClaim();
  }

  showClaim() {
    const c = this.claimIn;
    const shown = !!(c && this.state.you && this.state.status === 'live');
    this.claim.hidden = !shown;
    if (!shown) return;
    const seconds = Math.max(0, Math.ceil((c.ms - (performance.now() - c.at)) / 1000));
    this.claimText.textContent = seconds > 0
      ? `Your opponent left the game. If they are not back within ${seconds} s, you may claim victory.`
      : 'Your opponent left the game: you may claim victory, or wait for them.';
    this.claimButton.disabled = seconds > 0;
  }

  // A rated game's ratings, read once when it starts and again once it is over (with the
  // change the game made).
  async loadRatings() {
    const s = this.state;
    const want = s.rated && s.status !== 'waiting' ? s.status : null;
    if (!want || this.ratingsFor === want) return;
    this.ratingsFor = want;
    try {
      this.ratings = await api.gameRatings(this.id);
      this.players.querySelectorAll('.rating').forEach((el) => el.replaceWith(this.ratingText(el.dataset.color)));
    } catch {
      this.ratingsFor = null; // tried again with the next state
    }
  }

  // " (1523)" beside a player's name, and once the game is over " 1500 +23".
  ratingText(color) {
    const r = this.ratings;
    const change = r && r.changes[color];
    const rating = r && r.ratings[color];
    if (change) {
      const delta = Math.round(change.after) - Math.round(change.before);
      return h('span', { class: `rating ${delta >= 0 ? 'up' : 'down'}`, dataset: { color } },
        ` (${Math.round(change.before)} ${delta >= 0 ? '+' : '−'}${Math.abs(delta)})`);
    }
    return h('span', { class: 'rating', dataset: { color } }, rating !== null && rating !== undefined ? ` (${Math.round(rating)})` : '');
  }

  async refreshAnalysis() {
    // The server gives analysis during play only to a person playing a house bot.
    const open = this.state.analysis && this.state.status === 'live';
    this.analysisToggle.el.hidden = !open;
    const on = this.analysisToggle.input.checked;
    if (!on || !open) {
      if (this.analysis) {
        this.analysis = null;
        this.showPosition();
      }
      this.analysisPanel.replaceChildren();
      return;
    }
    if (this.analysing) return;
    this.analysing = true;
    const ply = this.lastPly();
    try {
      const analysis = await api.analysis(this.id, ANALYSIS_MS);
      if (ply === this.lastPly()) {
        this.analysis = analysis;
        this.analysisPanel.replaceChildren(analysisSummary(analysis, this.names));
        this.showPosition();
      }
    } catch (err) {
      this.analysisPanel.replaceChildren(h('p', { class: 'error' }, `No analysis: ${err.message}`));
    } finally {
      this.analysing = false;
    }
    // A move came in while the search ran: look at the new position.
    if (ply !== this.lastPly()) this.refreshAnalysis();
  }
}

// The browser's storage of a setting; it may be off (private windows), and then nothing is
// remembered.
function remembered(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not remembered: the setting still applies to this page.
  }
}

function clockBox(color) {
  const time = h('span', { class: 'time' }, '–');
  const el = h('div', { class: `clock ${color}`, role: 'timer', 'aria-label': `${color}'s clock` },
    h('span', { class: `dot ${color}` }), h('span', { class: 'who' }, color), time);
  return { el, time };
}

function toggle(name, label, checked, onChange) {
  const input = h('input', { type: 'checkbox', id: `toggle-${name}`, name, checked });
  input.addEventListener('change', () => onChange(input.checked));
  return { input, el: h('label', { class: `toggle toggle-${name}`, for: `toggle-${name}` }, input, ' ', label) };
}

// The cells of the turn that led to `ply`: the run of moves its player made last, without
// `end` and `pass`; a `swap` marks the first stone, which it took over.
function lastTurnMoves(view, ply) {
  const moves = [];
  for (let i = ply - 1; i >= 0 && view.movers[i] === view.movers[ply - 1]; i--) moves.push(view.moves[i]);
  return moves.map((m) => (m === 'swap' ? view.moves[0] : m)).filter((m) => m !== 'end' && m !== 'pass');
}

function scoreText(view, state, ply) {
  if (view.score) {
    // During play every stone counts as alive: the line says so.
    const what = {
      finished: 'Final score',
      replay: `Score after move ${ply}, every stone alive (${state.params.scoring}, komi to white)`,
    }[state.status] ?? `Score if the game ended now (${state.params.scoring}, komi to white)`;
    return `${what}: black ${view.score.black}, white ${view.score.white}`;
  }
  const { black, white } = view.captures;
  if (view.game === 'capture-go') return `Captured (${state.params.target} wins): black ${black}, white ${white}`;
  if (black === 0 && white === 0) return '';
  return `${view.game === 'ctor' ? 'Turned over' : 'Captured'}: black ${black}, white ${white}`;
}

// The engine's candidates, named as the board names its cells (Go's A–T and rows).
function analysisSummary(analysis, names) {
  const top = analysis.moves.slice(0, 5);
  const line = (moves) => moves.map((m) => names.label(m)).join(' ');
  return h('div', null,
    h('p', null, `${analysis.simulations} simulations`),
    h('ol', { class: 'candidates' }, ...top.map((m) =>
      h('li', null, h('strong', null, names.label(m.move)), ` ${m.visits} visits, ${(m.win_rate * 100).toFixed(0)}% for the player to move`,
        m.pv && m.pv.length > 1 ? h('span', { class: 'pv' }, ` — ${line(m.pv.slice(0, 6))}`) : null))));
}
