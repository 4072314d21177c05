// The form that creates a game: any rule set with a field for each of its parameters (from
// GET /api/rules), a time control, the opponent (a house bot of some level, or a person
// through an invite link), the colour, and whether the game is rated.

import { withNext } from './account.js';
import { levelsPlaying } from './api.js';
import { h, replaceChildren } from './dom.js';
import { rulesPanel } from './rules.js';

const CLOCKS = [
  ['none', 'No clock'],
  ['60+2', '1 min + 2 s a move'],
  ['300+5', '5 min + 5 s a move'],
  ['900+10', '15 min + 10 s a move'],
  ...[1, 2, 3, 5, 7, 14].map((days) => [`${days}d`, `${days} day${days === 1 ? '' : 's'} per move (correspondence)`]),
  ['custom', 'Custom…'],
];

/** The form for `session`; `onCreate(spec)` gets the body of POST /api/games. */
export function newGameForm(rules, levels, session, onCreate) {
  // `/?game=NAME` (a finished game's "New game") chooses the rule set.
  const wanted = new URLSearchParams(location.search).get('game');
  const gameSelect = h('select', { id: 'new-game', name: 'game' },
    ...rules.map((r) => h('option', { value: r.name, selected: r.name === wanted }, r.name)));
  const summary = h('p', { class: 'summary' });
  const help = h('div', { class: 'help-slot' });
  const params = h('fieldset', { class: 'params' });
  const showRules = () => {
    const rule = rules.find((r) => r.name === gameSelect.value);
    summary.textContent = rule.summary;
    replaceChildren(help, rulesPanel(rule.name));
    replaceChildren(params, h('legend', null, 'Parameters'), ...rule.params.map(paramField));
    offerLevels(rule.name);
  };
  gameSelect.addEventListener('change', showRules);
  // Only the levels that play the rule set are offered (`zero` needs its network).
  const offerLevels = async (game) => {
    const playing = await levelsPlaying(game, gameSelect);
    if (!playing) return;
    const chosen = playing.includes(levelSelect.value) ? levelSelect.value : 'casual';
    replaceChildren(levelSelect,
      ...playing.map((l) => h('option', { value: l, selected: l === chosen }, l)));
  };

  const clockSelect = h('select', { id: 'new-clock', name: 'clock' },
    ...CLOCKS.map(([value, label]) => h('option', { value }, label)));
  // The server's limits: 1 s to 24 h, and up to an hour added a move.
  const minutes = h('input', { id: 'clock-minutes', name: 'minutes', type: 'number', min: 0.5, max: 1440, step: 0.5, value: 10 });
  const increment = h('input', { id: 'clock-increment', name: 'increment', type: 'number', min: 0, max: 3600, step: 1, value: 5 });
  const custom = h('div', { class: 'custom-clock', hidden: true },
    h('label', { for: 'clock-minutes' }, 'Minutes'), minutes,
    h('label', { for: 'clock-increment' }, 'Seconds added a move'), increment);
  clockSelect.addEventListener('change', () => { custom.hidden = clockSelect.value !== 'custom'; });

  const levelSelect = h('select', { id: 'new-level', name: 'level', 'aria-label': "the house bot's level" },
    ...levels.map((l) => h('option', { value: l, selected: l === 'casual' }, l)));
  const radio = (value, label, checked) => h('label', { class: 'choice' },
    h('input', { type: 'radio', name: 'opponent', value, checked }), ' ', label);
  const colorSelect = h('select', { id: 'new-color', name: 'color' },
    ...['black', 'white', 'random'].map((c) => h('option', { value: c }, c)));
  // Rated games are for accounts, with a clock, at the rule set's default parameters (the
  // pool's); the server says which condition fails, and the help says them all beforehand.
  const account = !!(session && session.account);
  const rated = h('input', { id: 'new-rated', name: 'rated', type: 'checkbox', disabled: !account });
  const ratedHelp = account
    ? h('small', { class: 'help' }, 'Rated games need a clock and the default parameters.')
    : h('small', { class: 'help' }, 'Rated games are for accounts: ',
      h('a', { href: withNext('/signup', '/') }, 'create one'), '.');
  const error = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create game');

  // The page checks the fields itself and says what is wrong in words (novalidate: no
  // browser bubble that disappears, nor one that assistive technology may miss).
  const form = h('form', { class: 'new-game', 'aria-label': 'new game', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'new-game' }, 'Rule set'), gameSelect),
    summary,
    help,
    params,
    h('div', { class: 'field' }, h('label', { for: 'new-clock' }, 'Time control'), clockSelect),
    custom,
    h('fieldset', { class: 'opponent' }, h('legend', null, 'Opponent'),
      h('div', { class: 'field' }, radio('house', 'House bot', true), levelSelect),
      h('div', { class: 'field' }, radio('invite', 'A person: get an invite link', false)),
      h('div', { class: 'field' }, radio('open', 'Anyone: an open game in the lobby', false))),
    h('div', { class: 'field' }, h('label', { for: 'new-color' }, 'Your colour'), colorSelect),
    h('div', { class: 'field' }, h('label', { for: 'new-rated' }, 'Rated'), rated, ratedHelp),
    submit, error);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const kind = form.elements.opponent.value;
    const opponent = kind === 'house' ? { kind, level: levelSelect.value } : { kind };
    const spec = {
      game: gameSelect.value,
      params: paramValues(params),
      clock: clockSpec(clockSelect.value, Number(minutes.value), Number(increment.value)),
      opponent,
      color: colorSelect.value,
      rated: rated.checked,
    };
    error.textContent = '';
    if (clockSelect.value === 'custom' && !(minutes.valueAsNumber >= 0.5 && minutes.valueAsNumber <= 1440
      && increment.valueAsNumber >= 0 && increment.valueAsNumber <= 3600)) {
      error.textContent = 'A custom time is half a minute to 1440 minutes, with 0 to 3600 seconds added a move.';
      return;
    }
    if (spec.rated && !spec.clock) {
      error.textContent = 'A rated game needs a clock: choose a time control.';
      return;
    }
    submit.disabled = true;
    try {
      await onCreate(spec);
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  });
  showRules();
  return form;
}

// One field for a parameter as `toroid games --json` describes it. A derived default (Go's
// move limit) leaves the field empty and the rule set computes it.
function paramField(param) {
  const id = `param-${param.name}`;
  let input;
  if (param.kind === 'choice') {
    // A derived default (Go's scoring phase, which the server chooses by the players) is
    // the empty choice, sent as no value.
    const derived = param.default_derived ? [h('option', { value: '', selected: true }, `default: ${param.default}`)] : [];
    input = h('select', { id, name: param.name }, ...derived,
      ...param.choices.map((c) => h('option', { value: c, selected: !param.default_derived && c === param.default }, c)));
  } else {
    input = h('input', {
      id,
      name: param.name,
      type: 'number',
      step: param.kind === 'int' ? 1 : 'any',
      min: param.min,
      max: param.max,
      value: param.default_derived ? null : param.default,
      placeholder: param.default_derived ? param.default : null,
      required: !param.default_derived,
      dataset: { kind: param.kind },
    });
  }
  return h('div', { class: 'field' },
    h('label', { for: id }, param.name.replace(/_/g, ' ')), input,
    h('small', { class: 'help' }, param.help));
}

function paramValues(fieldset) {
  const values = {};
  for (const input of fieldset.querySelectorAll('input, select')) {
    if (input.value === '') continue;
    values[input.name] = input.tagName === 'SELECT' ? input.value : Number(input.value);
  }
  return values;
}

function clockSpec(choice, minutes, increment) {
  if (choice === 'none') return null;
  if (choice === 'custom') return { initial_s: Math.round(minutes * 60), increment_s: increment };
  if (choice.endsWith('d')) return { days_per_move: Number(choice.slice(0, -1)) };
  const [initial, inc] = choice.split('+').map(Number);
  return { initial_s: initial, increment_s: inc };
}
