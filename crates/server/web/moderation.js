// People protecting themselves and moderators keeping the site: the form that reports a
// player or a chat line (or blocks its author), the settings page (`/settings`: one's
// password and blocked players) and the moderators' page (`/admin`: reports, recent
// sign-ups, a player's chat lines).

import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { playerHref, whenText } from './format.js';

/** The server's longest reason for a report. */
const REASON_MAX = 500;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

/**
 * A small form that reports `about` (`{player}` or `{chat_line}`) by `name`, or blocks
 * `name`; `done()` closes it. Every outcome is said in its status line.
 */
export function reportForm(name, about, done) {
  const reason = h('input', {
    name: 'reason', required: true, maxlength: REASON_MAX, autocomplete: 'off',
    'aria-label': `Why report ${name}?`, placeholder: 'Why? (what a moderator should know)',
  });
  const status = h('p', { class: 'report-status', role: 'status' });
  const form = h('form', { class: 'report-form', 'aria-label': `report or block ${name}` },
    reason,
    h('button', { type: 'submit' }, 'Report'),
    h('button', { type: 'button', class: 'block', onclick: () => block() }, `Block ${name}`),
    h('button', { type: 'button', class: 'cancel', onclick: () => done() }, 'Close'),
    status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api.report(about, reason.value.trim());
      reason.value = '';
      status.textContent = 'Reported: a moderator will read it.';
    } catch (err) {
      status.textContent = err.message;
    }
  });
  async function block() {
    try {
      await api.block(name);
      status.textContent = `${name} is blocked: no games with you, and their chat lines are hidden (undo it in Settings).`;
    } catch (err) {
      status.textContent = err.message;
    }
  }
  return form;
}

/** The settings page: one's password (an account's) and the players one blocks. */
export async function showSettings(root, session) {
  if (!session) {
    replaceChildren(root, h('p', null, h('a', { href: '/signin?next=/settings' }, 'Sign in'), ' to see your settings.'));
    return () => {};
  }
  const blocked = h('ul', { class: 'blocked', 'aria-label': 'blocked players' });
  async function listBlocks() {
    const blocks = await api.blocks();
    if (blocks.length === 0) {
      replaceChildren(blocked, h('li', { class: 'empty' }, 'You block nobody.'));
      return;
    }
    replaceChildren(blocked, ...blocks.map((b) => h('li', null, b.name, ' ',
      h('button', { type: 'button', onclick: async () => { await api.unblock(b.name); await listBlocks(); } }, `Unblock ${b.name}`))));
  }
  try {
    await listBlocks();
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `Cannot show your settings: ${err.message}`));
    return () => {};
  }
  replaceChildren(root, h('section', { class: 'card settings' },
    h('h1', null, 'Settings'),
    session.account ? passwordForm() : h('p', null, 'Guests have no password: ', h('a', { href: '/signup' }, 'create an account'), ' to keep your name.'),
    h('h2', null, 'Blocked players'), blocked));
  return () => {};
}

function passwordForm() {
  const field = (id, label, autocomplete) => {
    const input = h('input', { id, name: id, type: 'password', required: true, maxlength: PASSWORD_MAX, autocomplete });
    return [input, h('label', { for: id }, label)];
  };
  const [current, currentLabel] = field('password-current', 'Current password', 'current-password');
  const [next, nextLabel] = field('password-new', 'New password', 'new-password');
  const status = h('p', { class: 'password-status', role: 'status' });
  const form = h('form', { class: 'password-form', 'aria-label': 'change your password' },
    h('h2', null, 'Password'),
    currentLabel, current, nextLabel, next,
    h('small', { class: 'help' }, `${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Your other sessions are signed out.`),
    h('button', { type: 'submit', class: 'primary' }, 'Change password'), status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api.changePassword(current.value, next.value);
      current.value = '';
      next.value = '';
      status.textContent = 'Your password is changed.';
    } catch (err) {
      status.textContent = err.code === 'bad-credentials' ? 'That is not your current password.' : err.message;
    }
  });
  return form;
}

/** The moderators' page: reports to deal with, recent sign-ups, a player's chat lines. */
export async function showAdmin(root, session) {
  if (!session || session.role === 'none') {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, 'This page is for moderators and admins.'));
    return () => {};
  }
  const reports = h('div', { class: 'reports' });
  const signUps = h('div', { class: 'sign-ups' });
  const lines = h('div', { class: 'player-lines' });
  const status = h('p', { class: 'admin-status', role: 'status' });
  // Runs an act, says what it did, and shows the lists again.
  const act = (what) => async () => {
    try {
      status.textContent = (await what()).message;
    } catch (err) {
      status.textContent = err.message;
    }
    await refresh();
  };
  const lineItem = (line) => h('li', { class: line.deleted ? 'deleted' : null },
    h('span', { class: 'author' }, line.author), ' ', h('q', { class: 'text' }, line.text), ' ',
    h('a', { href: `/game/${encodeURIComponent(line.game_id)}` }, 'in this game'), ' ',
    line.deleted ? h('em', null, '(deleted)') : h('button', { type: 'button', onclick: act(() => api.admin.deleteChat(line.id)) }, 'Delete line'));
  async function refresh() {
    const [open, accounts] = await Promise.all([api.admin.reports(false), api.admin.accounts()]);
    replaceChildren(reports, open.length === 0 ? h('p', { class: 'empty' }, 'No report to deal with.')
      : h('ul', { 'aria-label': 'open reports' }, ...open.map((r) => h('li', { class: 'report' },
        h('p', null, h('strong', null, r.reporter), ' reports ', h('a', { href: playerHref(r.player) }, r.player),
          ` ${whenText(r.at)}: `, h('q', null, r.reason)),
        r.chat_line ? h('ul', null, lineItem(r.chat_line)) : null,
        h('button', { type: 'button', onclick: act(() => api.admin.ban(r.player)) }, `Ban ${r.player}`),
        h('button', { type: 'button', onclick: act(() => api.admin.resolve(r.id)) }, 'Dealt with')))));
    replaceChildren(signUps, h('table', null,
      h('thead', null, h('tr', null, h('th', null, 'Name'), h('th', null, 'Joined'), h('th', null, 'Role'), h('th', null, ''))),
      h('tbody', null, ...accounts.map((a) => h('tr', null,
        h('td', null, h('a', { href: playerHref(a.name) }, a.name)),
        h('td', null, whenText(a.created_at)),
        h('td', null, a.role === 'none' ? '' : a.role),
        h('td', null, a.banned
          ? h('button', { type: 'button', onclick: act(() => api.admin.unban(a.name)) }, `Unban ${a.name}`)
          : h('button', { type: 'button', onclick: act(() => api.admin.ban(a.name)) }, `Ban ${a.name}`)))))));
  }
  const player = h('input', { id: 'lines-of', name: 'player', required: true, autocomplete: 'off' });
  const lookUp = h('form', { class: 'lines-form', 'aria-label': "a player's chat lines" },
    h('label', { for: 'lines-of' }, 'Player'), player, h('button', { type: 'submit' }, 'Show chat lines'));
  lookUp.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const found = await api.admin.chatBy(player.value.trim());
      replaceChildren(lines, found.length === 0 ? h('p', { class: 'empty' }, 'No line.') : h('ul', null, ...found.map(lineItem)));
    } catch (err) {
      replaceChildren(lines, h('p', { class: 'error', role: 'alert' }, err.message));
    }
  });
  try {
    await refresh();
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' }, `Cannot show this page: ${err.message}`));
    return () => {};
  }
  replaceChildren(root, h('section', { class: 'card admin' },
    h('h1', null, 'Moderation'), status,
    h('h2', null, 'Reports'), reports,
    h('h2', null, 'Recent sign-ups'), signUps,
    h('h2', null, "A player's chat lines"), lookUp, lines));
  return () => {};
}
