// @module public/js/dashboard/local-time — the server writes moments in
// UTC, not knowing the member's time zone; <time datetime="…" data-local>
// is rewritten here in the browser's zone, in the page's language.

export function showLocalTimes(root = document) {
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'short' });
  for (const element of root.querySelectorAll('time[data-local]')) {
    const date = new Date(element.getAttribute('datetime') ?? '');
    if (Number.isNaN(date.getTime())) continue;
    element.title = element.textContent ?? '';
    element.textContent = format.format(date);
  }
}
