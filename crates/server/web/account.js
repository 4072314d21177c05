// Accounts: signing up (a guest claims its name with a password, or a new visitor claims a
// fresh one) and signing in. Both forms return to the page the visitor came from (`?next=`).

import { api } from './api.js';
import { h, replaceChildren } from './dom.js';

/** The server's limits (docs/server.md): names of 1 to 32 characters, passwords of 8 to 128. */
export const NAME_MAX = 32;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

/**
 * The sign-up (`mode` 'signup') or sign-in ('signin') form in `root`. `session` is the
 * current one (a guest's name is offered for sign-up); `onSession(session)` gets the new
 * one; `navigate(path)` leaves afterwards.
 */
export function showAccountForm(root, mode, session, onSession, navigate) {
  const signUp = mode === 'signup';
  const next = safeNext(new URLSearchParams(location.search).get('next'));
  const name = h('input', {
    id: 'account-name', name: 'name', required: true, maxlength: NAME_MAX, autocomplete: 'username',
    value: session && !session.account ? session.name : null,
  });
  const password = h('input', {
    id: 'account-password', name: 'password', type: 'password', required: true,
    maxlength: PASSWORD_MAX,
    autocomplete: signUp ? 'new-password' : 'current-password',
  });
  const error = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, signUp ? 'Create account' : 'Sign in');
  const other = signUp
    ? h('p', null, 'Have an account? ', h('a', { href: withNext('/signin', next) }, 'Sign in'))
    : h('p', null, 'No account yet? ', h('a', { href: withNext('/signup', next) }, 'Create one'));
  const form = h('form', { class: 'sign-in card', 'aria-label': signUp ? 'create an account' : 'sign in' },
    h('h2', null, signUp ? 'Create an account' : 'Sign in'),
    signUp
      ? h('p', null, 'An account keeps your name, your ratings and your bots. ',
        session && !session.account ? 'Your games and bots as a guest come with you.' : null)
      : null,
    h('label', { for: 'account-name' }, 'Name'), name,
    h('label', { for: 'account-password' }, 'Password'), password,
    signUp ? h('small', { class: 'help' }, `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`) : null,
    submit, error, other);
  form.addEventListener('input', () => { error.textContent = ''; });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    if (signUp && [...password.value].length < PASSWORD_MIN) {
      error.textContent = `A password has at least ${PASSWORD_MIN} characters.`;
      return;
    }
    submit.disabled = true;
    try {
      const fresh = signUp
        ? await api.createAccount(name.value.trim(), password.value)
        : await api.signIn(name.value.trim(), password.value);
      onSession(fresh);
      navigate(next, true);
    } catch (err) {
      error.textContent = err.code === 'bad-credentials' ? 'No account has this name and password.' : err.message;
    } finally {
      submit.disabled = false;
    }
  });
  replaceChildren(root, form);
  name.focus();
}

/** `path` with `?next=` when it leads back somewhere other than the lobby. */
export function withNext(path, next) {
  return next && next !== '/' ? `${path}?next=${encodeURIComponent(next)}` : path;
}

// Only a path of this site: an absolute URL or `//host` in `next` would send the visitor
// elsewhere after signing in.
function safeNext(next) {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * The form that starts a guest session: a name, with links to sign in or up instead.
 * `onSession(session)` gets the new session.
 */
export function guestForm(reason, onSession) {
  const input = h('input', { id: 'guest-name', name: 'name', required: true, maxlength: NAME_MAX, autocomplete: 'nickname' });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'sign-in card', 'aria-label': 'play as a guest' },
    h('h2', null, 'Play as a guest'),
    h('p', null, reason),
    h('label', { for: 'guest-name' }, 'Your name'), input,
    h('button', { type: 'submit', class: 'primary' }, 'Continue'),
    error,
    h('p', null, 'Or keep your name and ratings: ',
      h('a', { href: withNext('/signin', location.pathname) }, 'sign in'), ' or ',
      h('a', { href: withNext('/signup', location.pathname) }, 'create an account'), '.'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      onSession(await api.signIn(input.value.trim()));
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}
