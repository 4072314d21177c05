// The page's entry: the session (a guest's or an account's) and the routes `/` (lobby),
// `/game/<id>` (play, spectate, replay), `/join/<code>` (accept an invitation), `/signin`,
// `/signup`, `/leaderboard/<game>`, `/player/<name>`, `/tournaments`, `/tournament/<id>`,
// `/learn`, `/puzzles`, `/puzzles/<id>`, `/settings` and (for moderators and admins) `/admin`.

import { guestForm, showAccountForm, withNext } from './account.js';
import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { playerHref } from './format.js';
import { showGame } from './game.js';
import { showInvitation } from './invitation.js';
import { showLessons } from './lessons.js';
import { showLobby } from './lobby.js';
import { showAdmin, showSettings } from './moderation.js';
import { startNews } from './news.js';
import { showPuzzles } from './puzzles.js';
import { showLeaderboard, showPlayer } from './ratings.js';
import { showTournament, showTournaments } from './tournaments.js';

const root = document.getElementById('app');
const who = document.getElementById('who');
let session = null;
let teardown = () => {};
let generation = 0; // routes started, so that a slow one does not outlive a newer one

function navigate(path, replace = false) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  return route();
}

// The header: who is signed in (an account's name leads to its page), and the ways to
// sign up, in or out.
function showSession() {
  const here = location.pathname;
  const signIn = h('a', { href: withNext('/signin', here) }, 'Sign in');
  const signUp = h('a', { href: withNext('/signup', here) }, 'Create account');
  const signOut = h('button', { type: 'button', class: 'sign-out', onclick: leave }, 'Sign out');
  if (!session) replaceChildren(who, signIn, signUp);
  else if (session.account) {
    const moderation = session.role !== 'none' ? h('a', { class: 'moderation', href: '/admin' }, 'Moderation') : null;
    replaceChildren(who, h('a', { class: 'name', href: playerHref(session.name), title: 'your page' }, session.name),
      moderation, h('a', { class: 'settings', href: '/settings' }, 'Settings'), signOut);
  } else {
    replaceChildren(who, h('span', { class: 'name', title: 'your guest name' }, `${session.name} (guest)`),
      h('a', { class: 'settings', href: '/settings' }, 'Settings'), signUp, signIn);
  }
}

async function leave() {
  try {
    await api.signOut();
  } catch {
    // Already gone on the server: the page forgets it all the same.
  }
  session = null;
  listen();
  navigate('/');
}

// The guest sign-in in place of `view`; resolves once the server has given this browser a
// session.
function signIn(view, reason) {
  return new Promise((resolve) => {
    const form = guestForm(reason, (fresh) => {
      useSession(fresh);
      resolve();
    });
    replaceChildren(view, form);
    form.querySelector('input').focus();
  });
}

function useSession(fresh) {
  session = fresh;
  showSession();
  listen();
}

// The signed-in person's news (one socket a page), from the session on.
const newsBox = document.getElementById('news');
let stopNews = () => {};
function listen() {
  stopNews();
  stopNews = session ? startNews(newsBox, navigate) : () => {};
}

// Keeps a view's teardown, or runs it at once when another route started meanwhile.
async function mount(generationAtStart, show) {
  const stop = await show();
  if (generationAtStart === generation) teardown = stop;
  else stop();
}

// Each route draws into a container of its own, so a slow route that lost the race draws
// into a detached element.
async function route() {
  teardown();
  teardown = () => {};
  const current = ++generation;
  const view = h('div', { class: 'view' });
  replaceChildren(root, view);
  document.title = 'toroid';
  showSession();
  const path = location.pathname;
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'game' && parts.length === 2) {
    await mount(current, () => showGame(view, parts[1], navigate, session));
  } else if (parts[0] === 'join' && parts.length === 2) {
    await mount(current, () => showInvitation(view, parts[1], session, useSession, navigate));
  } else if ((parts[0] === 'signin' || parts[0] === 'signup') && parts.length === 1) {
    showAccountForm(view, parts[0], session, useSession, navigate);
  } else if (parts[0] === 'leaderboard' && parts.length === 2) {
    await mount(current, () => showLeaderboard(view, parts[1]));
  } else if (parts[0] === 'player' && parts.length === 2) {
    await mount(current, () => showPlayer(view, parts[1], session));
  } else if (parts[0] === 'tournaments' && parts.length === 1) {
    await mount(current, () => showTournaments(view, session, navigate));
  } else if (parts[0] === 'tournament' && parts.length === 2) {
    await mount(current, () => showTournament(view, parts[1], session));
  } else if (parts[0] === 'learn' && parts.length === 1) {
    await mount(current, () => showLessons(view, new URLSearchParams(location.search).get('game')));
  } else if (parts[0] === 'puzzles' && parts.length <= 2) {
    const query = new URLSearchParams(location.search);
    const which = { game: query.get('game'), skip: query.get('skip'), id: parts[1] };
    await mount(current, () => showPuzzles(view, which, session, navigate));
  } else if (parts[0] === 'settings' && parts.length === 1) {
    await mount(current, () => showSettings(view, session));
  } else if (parts[0] === 'admin' && parts.length === 1) {
    await mount(current, () => showAdmin(view, session));
  } else if (parts.length === 0) {
    await mount(current, () => showLobby(view, session, navigate, async (fresh) => {
      useSession(fresh);
      // The focus goes on to what the name was for, not back to the top of the page.
      await navigate('/', true);
      document.getElementById('quick-pairing')?.focus();
    }));
  } else {
    replaceChildren(view, h('p', { class: 'error' }, 'There is no such page. '), h('a', { href: '/' }, 'Go to the lobby'));
  }
}

// The theme: the system's (light or dark), or one the visitor chose, remembered.
const THEMES = ['system', 'dark', 'light'];
const themeButton = document.getElementById('theme');
function showTheme(theme) {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  themeButton.textContent = `Theme: ${theme}`;
  themeButton.setAttribute('aria-label', `Colour theme: ${theme}. Change it`);
}
themeButton.addEventListener('click', () => {
  const next = THEMES[(THEMES.indexOf(themeButton.textContent.replace('Theme: ', '')) + 1) % THEMES.length];
  try {
    localStorage.setItem('toroid.theme', next);
  } catch {
    // Not remembered (private windows): it applies to this page all the same.
  }
  showTheme(next);
});
let savedTheme = null;
try {
  savedTheme = localStorage.getItem('toroid.theme');
} catch {
  // Storage is off (private windows): the system's theme.
}
showTheme(THEMES.includes(savedTheme) ? savedTheme : 'system');

// Same-site links open inside the page instead of reloading it.
document.addEventListener('click', (event) => {
  const link = event.target.closest('a[href^="/"]');
  if (!link || link.hasAttribute('download') || link.target || event.button !== 0
    || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(link.getAttribute('href'));
});
window.addEventListener('popstate', route);

try {
  session = await api.session();
} catch {
  session = null; // The lobby shows the error when it cannot load.
}
listen();
route();
