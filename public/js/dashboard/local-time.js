// @module public/js/dashboard/local-time — the server writes moments in
// UTC, not knowing the member's time zone; <time datetime="…" data-local>
// is rewritten here in the browser's zone, in the page's language
// (data-local="time": the time of day only).

export function showLocalTimes(root = document) {
  const lang = document.documentElement.lang || undefined;
  const full = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const time = new Intl.DateTimeFormat(lang, { timeStyle: 'short' });
  for (const element of root.querySelectorAll('time[data-local]')) {
    const date = new Date(element.getAttribute('datetime') ?? '');
    if (Number.isNaN(date.getTime())) continue;
    element.title = element.textContent ?? '';
    element.textContent = (element.dataset.local === 'time' ? time : full).format(date);
  }
}
