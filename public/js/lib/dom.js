// @module public/js/lib/dom — building elements in one expression, and
// reading the settings the server put into the page.

/**
 * `el('button', { id: 'join', class: 'primary', onclick }, 'Join')`:
 * `on…` attributes become listeners, `true` an empty attribute, and
 * false, null or undefined leave the attribute out, so optional ones can be
 * written inline. Null and undefined children are skipped.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else if (value === true) node.setAttribute(key, '');
    else if (value !== false && value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/**
 * The page's settings: a JSON data block rendered by the server (CSP
 * forbids inline script, and a data block is not script).
 */
export function readSettings(id = 'foyer-settings') {
  return JSON.parse(document.getElementById(id).textContent);
}
