// An invitation (`/join/<code>`): the game it opens (rule set, parameters, clock, whether it
// is rated, who invites and with which colour) before the visitor chooses a name and joins.

import { guestForm } from './account.js';
import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { clockSettingsText, colorName, otherColor, paramsText, playerLabel } from './format.js';
import { rulesPanel } from './rules.js';

/** Shows invitation `code` in `root`; `onSession` takes a new guest session. */
export async function showInvitation(root, code, session, onSession, navigate) {
  replaceChildren(root, h('p', { class: 'loading' }, 'Loading the invitation…'));
  let game;
  try {
    game = await api.invitation(code);
  } catch (err) {
    replaceChildren(root, h('p', { class: 'error', role: 'alert' },
      err.status === 404 ? 'This invitation does not exist, or its link was replaced by a new one.' : `The invitation cannot be shown: ${err.message}`),
    h('p', null, h('a', { href: '/' }, 'Go to the lobby')));
    return () => {};
  }
  const gamePath = `/game/${encodeURIComponent(game.id)}`;
  const error = h('p', { class: 'error', role: 'alert' });
  const join = async () => {
    try {
      await api.join(code);
      navigate(gamePath, true);
    } catch (err) {
      error.textContent = `You cannot join this game: ${err.message}`;
    }
  };
  const host = game.players.black || game.players.white;
  const hostColor = game.players.black ? 'black' : 'white';
  const yours = otherColor(hostColor);
  const clock = game.clock ? clockSettingsText(game.clock) : 'no clock';
  const details = h('dl', { class: 'invitation-details' },
    h('dt', null, 'Rule set'), h('dd', null, `${game.game} ${game.position.width}×${game.position.height}`),
    h('dt', null, 'Parameters'), h('dd', null, paramsText(game.params)),
    h('dt', null, 'Clock'), h('dd', null, clock),
    h('dt', null, 'Rated'), h('dd', null, game.rated ? 'yes: your account’s rating changes' : 'no'),
    h('dt', null, 'Opponent'), h('dd', null, `${playerLabel(host)}, playing ${colorName(hostColor)}`),
    h('dt', null, 'You play'), h('dd', null, colorName(yours)));
  let action;
  if (game.status !== 'waiting') {
    action = h('p', null, 'Someone has already taken this seat. ', h('a', { href: gamePath }, 'Watch the game'), '.');
  } else if (!session) {
    action = guestForm('Choose the name your opponent will see, and join.', (fresh) => {
      onSession(fresh);
      join();
    });
  } else {
    action = h('button', { type: 'button', class: 'primary join', onclick: join }, `Join as ${session.name}`);
  }
  replaceChildren(root, h('section', { class: 'card invitation' },
    h('h1', null, 'You are invited to a game'), details, rulesPanel(game.game), action, error));
  return () => {};
}
