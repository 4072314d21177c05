// Challenges to a player by name: the form on a player's page, and the lobby's list of the
// visitor's challenges (to answer those to them, follow or withdraw their own).

import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { clockSettingsText, colorName, paramsText, playerLabel, whenText } from './format.js';

/** A form on `name`'s page that challenges them to a game of one of `rules`. */
export function challengeForm(name, rules) {
  const game = h('select', { id: 'challenge-game', name: 'game' },
    ...rules.map((r) => h('option', { value: r.name }, r.name)));
  const note = h('p', { class: 'note', role: 'status' });
  const form = h('form', { class: 'challenge' },
    h('label', { for: 'challenge-game' }, 'Rule set'), game,
    h('button', { type: 'submit', class: 'primary' }, `Challenge ${name}`), note);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    note.textContent = '';
    try {
      const sent = await api.challenge({ to: name, game: game.value });
      note.textContent = `Challenge sent: it waits until ${whenText(sent.expires_at)} for ${name} to answer. Your challenges are in the lobby.`;
    } catch (err) {
      note.textContent = err.message;
    }
  });
  return form;
}

/**
 * The visitor's challenges as a list element and a function that refreshes it;
 * `navigate(path)` opens the game an accepted one started.
 */
export function challengeList(navigate) {
  const list = h('ul', { class: 'challenges', 'aria-label': 'challenges' });
  const refresh = async () => {
    let mine;
    try {
      mine = await api.challenges();
    } catch (err) {
      replaceChildren(list, h('li', { class: 'error' }, err.message));
      return;
    }
    const act = (label, cls, run) => h('button', { type: 'button', class: cls, onclick: async () => {
      try {
        await run();
      } catch (err) {
        list.prepend(h('li', { class: 'error', role: 'alert' }, err.message));
        return;
      }
      refresh();
    } }, label);
    const items = [
      ...mine.incoming.map((c) => h('li', { dataset: { id: c.id }, class: 'incoming' },
        h('span', null, `${playerLabel(c.from)} challenges you: `, describe(c), ` — you play ${colorName(c.color)}`),
        act('Accept', 'accept-challenge primary', async () => {
          const { game_id: id } = await api.acceptChallenge(c.id);
          navigate(`/game/${encodeURIComponent(id)}`);
        }),
        act('Decline', 'decline-challenge', () => api.declineChallenge(c.id)))),
      ...mine.outgoing.map((c) => h('li', { dataset: { id: c.id }, class: `outgoing ${c.status}` },
        h('span', null, `You challenged ${playerLabel(c.to)}: `, describe(c), ` — ${outcome(c)}`),
        c.status === 'accepted' ? h('a', { href: `/game/${encodeURIComponent(c.game_id)}` }, 'Open the game') : null,
        c.status === 'open' ? act('Withdraw', 'withdraw-challenge', () => api.withdrawChallenge(c.id)) : null)),
    ];
    replaceChildren(list, ...(items.length ? items : [h('li', { class: 'empty' }, 'No challenge. Challenge a player from their page.')]));
  };
  return { list, refresh };
}

function describe(c) {
  return [c.game, paramsText(c.params), c.clock ? clockSettingsText(c.clock) : 'no clock', c.rated ? 'rated' : null]
    .filter(Boolean).join(' · ');
}

function outcome(c) {
  return {
    open: `waiting for an answer until ${whenText(c.expires_at)}`,
    accepted: 'accepted',
    declined: `declined: ${c.reason || 'no reason given'}`,
    withdrawn: 'withdrawn',
    expired: 'expired',
  }[c.status];
}
