/**
 * @module web/pages
 * HTML of the meeting pages: the shell that loads the front end (its
 * settings in a JSON data block, which CSP does not treat as script), and
 * the plain pages for unknown (404) and ended (410) meetings. No inline
 * script or style, so the CSP stays strict.
 */
import type { IceServer } from '../realtime/ice.ts';
import type { Lang } from './strings.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a <script> element: no `<`, so no `</script>` or `<!--`. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export interface ShellSettings {
  target: { meetingId: string } | { slug: string };
  title: string | null;
  iceServers: IceServer[];
  wsPath: string;
}

export function shellPage(settings: ShellSettings, lang: Lang): string {
  const title = settings.title ? `${escapeHtml(settings.title)} · Foyer` : 'Foyer';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/app.css">
<script type="application/json" id="foyer-settings">${scriptJson(settings)}</script>
<script type="module" src="/static/js/app.js"></script>
</head>
<body>
<noscript><p class="plain">Foyer needs JavaScript to connect your camera and microphone.</p></noscript>
<main id="app" aria-live="polite"></main>
</body>
</html>
`;
}

export function plainPage(lang: Lang, heading: string, text: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)} · Foyer</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/app.css">
</head>
<body class="plain-page">
<main class="plain">
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
</main>
</body>
</html>
`;
}
