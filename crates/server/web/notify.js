// The browser's notifications, for news that arrives while the tab is hidden: asked for once,
// on a click that shows the visitor wants news (joining, seeking), and the answer remembered
// by the browser itself.

/** Asks for permission to notify, the first time only (the browser keeps the answer). */
export function askToNotify() {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  Notification.requestPermission().catch(() => {});
}

/**
 * Tells the visitor `title` (and `body`): a notification while the tab is hidden and
 * notifications are allowed, a click on which opens `href`; nothing otherwise (the page
 * shows it anyway).
 */
export function notify(title, body, href) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !document.hidden) return;
  const note = new Notification(title, { body, tag: href, icon: '/assets/icon.svg' });
  note.onclick = () => {
    window.focus();
    if (href) location.assign(href);
    note.close();
  };
}
