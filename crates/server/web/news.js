// A person's news on every page: challenges to them (with Accept and Decline), their games
// starting, their move and a reminder in correspondence games, and their tournaments'
// rounds. Each shows as a note under the header, and as a browser notification while the
// tab is hidden (if the visitor allowed them).

import { api, openNewsSocket } from './api.js';
import { h } from './dom.js';
import { clockText, colorName, playerLabel } from './format.js';
import { notify } from './notify.js';

const SHOWN = 4; // notes at most; the oldest goes first

/** Starts the news for the signed-in visitor into `box`; returns a function that stops it. */
export function startNews(box, navigate) {
  const socket = openNewsSocket((message) => {
    const note = noteOf(message, navigate);
    if (!note) return;
    notify(note.title, note.body, note.href);
    const item = h('li', { class: `news-item ${message.type}` },
      h('span', { class: 'news-text' }, note.title, note.body ? ` — ${note.body}` : ''), ' ',
      ...note.actions,
      note.href ? h('a', { href: note.href, class: 'news-link' }, note.link || 'Open') : null, ' ',
      h('button', { type: 'button', class: 'dismiss', 'aria-label': 'Dismiss', onclick: () => item.remove() }, '×'));
    box.append(item);
    while (box.childElementCount > SHOWN) box.firstElementChild.remove();
  });
  return () => {
    socket.close();
    box.replaceChildren();
  };
}

const gameHref = (game) => `/game/${encodeURIComponent(game.id)}`;

// The other player of one of the visitor's games, in words.
function opponentOf(game) {
  const names = ['black', 'white'].map((c) => game.players[c]).filter(Boolean).map(playerLabel);
  return names.join(' vs ');
}

function noteOf(message, navigate) {
  switch (message.type) {
    case 'challenge': {
      const c = message.challenge;
      const answer = (label, cls, run) => h('button', { type: 'button', class: cls, onclick: async (e) => {
        e.currentTarget.disabled = true;
        try {
          await run();
          e.target.closest('li')?.remove();
        } catch (err) {
          e.target.closest('li')?.append(h('span', { class: 'error', role: 'alert' }, ` ${err.message}`));
        }
      } }, label);
      return {
        title: `${playerLabel(c.from)} challenges you`,
        body: `${c.game}, you play ${colorName(c.color)}`,
        actions: [
          answer('Accept', 'accept-challenge primary', async () => {
            const { game_id: id } = await api.acceptChallenge(c.id);
            navigate(`/game/${encodeURIComponent(id)}`);
          }),
          answer('Decline', 'decline-challenge', () => api.declineChallenge(c.id)),
        ],
      };
    }
    case 'game-started':
      return { title: 'Your game has started', body: `${message.game.game}: ${opponentOf(message.game)}`, href: gameHref(message.game), link: 'Play', actions: [] };
    case 'your-turn':
      return { title: 'Your move', body: `${message.game.game}: ${opponentOf(message.game)}`, href: gameHref(message.game), link: 'Play', actions: [] };
    case 'reminder':
      return { title: `Your move: ${clockText(message.left_ms)} left`, body: `${message.game.game}: ${opponentOf(message.game)}`, href: gameHref(message.game), link: 'Play', actions: [] };
    case 'tournament': {
      const what = message.stage === 'running' ? `round ${message.round} has begun` : message.stage === 'finished' ? 'it is over' : 'it was cancelled';
      return { title: `${message.name}: ${what}`, body: '', href: `/tournament/${encodeURIComponent(message.id)}`, link: 'Standings', actions: [] };
    }
    default:
      return null;
  }
}
