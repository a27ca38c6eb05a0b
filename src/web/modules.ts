/**
 * @module web/modules
 * The browser modules a page's entry imports, directly or not, for the
 * `<link rel="modulepreload">` tags of its shell. Without them a browser
 * finds each level of imports only after fetching the level above, one
 * round trip per level (and small modules importing each other make many
 * levels); with them it asks for all of them at once.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PUBLIC_DIR = new URL('../../public/', import.meta.url);
const STATIC_PREFIX = '/static/';

/** Static `import … from './x.js'`, `import './x.js'` and `export … from './x.js'`: all our modules use. */
const RELATIVE_IMPORT = /^\s*(?:import|export)\b[^'"`;]*?['"](\.{1,2}\/[^'"]+\.js)['"]/gm;

const graphs = new Map<string, string[]>();

/** `entry` and what it imports, as /static/ paths, in the order found; read once, as public/ changes only with a deployment. */
export function modulesOf(entry: string): string[] {
  let graph = graphs.get(entry);
  if (!graph) {
    graph = walk(entry);
    graphs.set(entry, graph);
  }
  return graph;
}

function walk(entry: string): string[] {
  const found = [entry];
  for (let i = 0; i < found.length; i += 1) {
    const path = found[i]!;
    const source = readFileSync(fileURLToPath(new URL(path.slice(STATIC_PREFIX.length), PUBLIC_DIR)), 'utf8');
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      const imported = new URL(match[1]!, `http://static${path}`).pathname;
      if (!imported.startsWith(STATIC_PREFIX)) throw new Error(`${path} imports ${match[1]}, outside ${STATIC_PREFIX}`);
      if (!found.includes(imported)) found.push(imported);
    }
  }
  return found;
}
