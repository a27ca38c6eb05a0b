// @module public/js/call/icons — the call's icons, drawn as inline SVG
// elements (no icon font, nothing fetched, nothing the CSP forbids). Each is
// decoration beside a text or an accessible name, so hidden from screen readers.

const SVG = 'http://www.w3.org/2000/svg';

/** Outlines on a 24×24 grid, drawn with the current text colour. */
const PATHS = {
  mic: ['M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3z', 'M5 11a7 7 0 0 0 14 0', 'M12 18v3', 'M8.5 21h7'],
  micOff: ['M15 9.3V6a3 3 0 0 0-5.7-1.3', 'M9 9v3a3 3 0 0 0 4.6 2.5', 'M5 11a7 7 0 0 0 11.5 5.4', 'M19 11a7 7 0 0 1-.6 2.8', 'M12 18v3', 'M8.5 21h7', 'M3 3l18 18'],
  cam: ['M3 7h12v10H3z', 'M15 10.5l6-3.5v10l-6-3.5'],
  camOff: ['M9 7h6v6', 'M15 10.5l6-3.5v10l-6-3.5', 'M15 17H3V7h2', 'M2 2l20 20'],
  screen: ['M3 4h18v12H3z', 'M8 20h8', 'M12 16v4', 'M12 13V7', 'M9 10l3-3 3 3'],
  hand: ['M8 13V5.5a1.5 1.5 0 0 1 3 0V11', 'M11 10.5V4a1.5 1.5 0 0 1 3 0v6.5', 'M14 10.5V5.5a1.5 1.5 0 0 1 3 0V12', 'M17 9.5a1.5 1.5 0 0 1 3 0V15a7 7 0 0 1-7 7h-1a7 7 0 0 1-5.6-2.8l-2.8-4a1.6 1.6 0 0 1 2.6-1.9L8 15'],
  smile: ['M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z', 'M8 14.5s1.5 2 4 2 4-2 4-2', 'M9 9.5h.01', 'M15 9.5h.01'],
  chat: ['M4 5h16v11H9l-5 4z'],
  person: ['M16 8a4 4 0 1 1-8 0 4 4 0 0 1 8 0z', 'M5 21v-1a6 6 0 0 1 6-6h2a6 6 0 0 1 6 6v1'],
  people: ['M13 7.5a4 4 0 1 1-8 0 4 4 0 0 1 8 0z', 'M2 21v-1a6 6 0 0 1 6-6h2a6 6 0 0 1 6 6v1', 'M16 3.6a4 4 0 0 1 0 7.8', 'M22 21v-1a6 6 0 0 0-4-5.6'],
  settings: ['M15 12a3 3 0 1 1-6 0 3 3 0 0 1 6 0z', 'M12 2.5v3', 'M12 18.5v3', 'M2.5 12h3', 'M18.5 12h3', 'M5.3 5.3l2.1 2.1', 'M16.6 16.6l2.1 2.1', 'M5.3 18.7l2.1-2.1', 'M16.6 7.4l2.1-2.1'],
  more: ['M5 12h.01', 'M12 12h.01', 'M19 12h.01'],
  leave: ['M3.5 14.5c4.7-4.5 12.3-4.5 17 0l-2 2.5-3.2-1.3v-2.5a9.5 9.5 0 0 0-6.6 0v2.5L5.5 17z'],
  pin: ['M12 16v6', 'M8.5 3h7l-1 5.5L18 12H6l3.5-3.5z'],
  close: ['M6 6l12 12', 'M18 6L6 18'],
  send: ['M4 12L20 4l-5 16-3-7z', 'M12 13l8-9'],
  grid: ['M4 4h7v7H4z', 'M13 4h7v7h-7z', 'M4 13h7v7H4z', 'M13 13h7v7h-7z'],
  speaker: ['M4 9v6h4l5 4V5L8 9z', 'M16.5 8.5a5 5 0 0 1 0 7', 'M19 6a8.5 8.5 0 0 1 0 12'],
  lock: ['M6 11h12v10H6z', 'M8.5 11V7.5a3.5 3.5 0 0 1 7 0V11'],
  end: ['M12 3v9', 'M6.3 6.3a8 8 0 1 0 11.4 0'],
  warn: ['M12 3l10 18H2z', 'M12 10v5', 'M12 18h.01'],
};

/** `<svg class="icon icon-NAME">`, hidden from assistive technology. */
export function icon(name) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `icon icon-${name}`);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const d of PATHS[name] ?? []) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

/** Signal bars for a quality level (0 unknown, 1 poor, 2 fair, 3 good): the lit ones carry the class `lit`. */
export function bars(level) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', `icon bars level-${level}`);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  [
    [2, 10, 3, 4],
    [7, 6, 3, 8],
    [12, 2, 3, 12],
  ].forEach(([x, y, w, h], i) => {
    const rect = document.createElementNS(SVG, 'rect');
    for (const [k, v] of Object.entries({ x, y, width: w, height: h, rx: 1 })) rect.setAttribute(k, String(v));
    if (i < level) rect.setAttribute('class', 'lit');
    svg.append(rect);
  });
  return svg;
}
