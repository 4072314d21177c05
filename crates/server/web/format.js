// How games, players, results and times are written on the page.

const COLOR_NAMES = { b: 'black', w: 'white', black: 'black', white: 'white' };

/** 'black' / 'white' from either spelling ('b', 'black'). */
export function colorName(color) {
  return COLOR_NAMES[color] || '';
}

/** The other player's colour: 'white' for 'black', and the other way round. */
export function otherColor(color) {
  return color === 'black' ? 'white' : 'black';
}

/** A player as the page names it: "alice", "casual (house bot)", "waiting…". */
export function playerLabel(player) {
  if (!player) return 'waiting for a player…';
  if (player.kind === 'house') return `${player.name} (house bot)`;
  if (player.kind === 'bot') return `${player.name} (bot)`;
  return player.name;
}

/** The page of a player (an account, a registered bot or a house level) by name. */
export function playerHref(name) {
  return `/player/${encodeURIComponent(name)}`;
}

/** Parameters as "size 9 · komi 7.5". */
export function paramsText(params) {
  return Object.entries(params || {})
    .map(([key, value]) => `${key.replace(/_/g, ' ')} ${value}`)
    .join(' · ');
}

/** A result as the page shows it: the server's words, or who won. */
export function resultText(result) {
  if (!result) return '';
  if (result.text) return result.text;
  return result.winner === 'draw' ? 'draw' : `${result.winner} wins`;
}

/** A time control as "5 min + 3 s a move", "30 s" or "1.5 min". */
export function clockSettingsText(clock) {
  if (clock.days_per_move) return `${clock.days_per_move} day${clock.days_per_move === 1 ? '' : 's'} per move`;
  const minutes = clock.initial_s / 60;
  const initial = minutes >= 1 ? `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} min` : `${clock.initial_s} s`;
  return clock.increment_s ? `${initial} + ${clock.increment_s} s a move` : initial;
}

/** Remaining time: "4:59", "1:02:03", and tenths under ten seconds ("9.4"). */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10_000) return (Math.floor(left / 100) / 10).toFixed(1);
  const total = Math.floor(left / 1000);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n) => String(n).padStart(2, '0');
  // A correspondence clock: days and hours.
  if (hours >= 24) return `${Math.floor(hours / 24)} d ${hours % 24} h`;
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** A timestamp (seconds or an ISO string) as local date and time. */
export function whenText(value) {
  if (value === null || value === undefined) return '';
  const date = typeof value === 'number' ? new Date(value * (value < 1e12 ? 1000 : 1)) : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}
