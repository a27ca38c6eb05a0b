#!/usr/bin/env node
// Part of `npm run layering` (so of `npm test`), beside dependency-cruiser:
// the edges (src/http, src/web, src/realtime, src/cli) call the domain's commands,
// never the store. dependency-cruiser sees imports, and the rule
// `edges-call-commands` keeps the ports' modules out of the edges; but the
// store also rides along on the domain context (`ctx.store`) without any
// import, so this reads each edge module's syntax tree and refuses every
// property access or destructuring named `store`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const EDGES = ['src/http', 'src/web', 'src/realtime', 'src/cli'];
const found = [];
for (const root of EDGES) {
  for (const entry of readdirSync(root, { recursive: true })) {
    const path = join(root, String(entry));
    if (!/\.(ts|js)$/.test(path) || /\.test\.ts$/.test(path)) continue;
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      const named =
        (ts.isPropertyAccessExpression(node) && node.name.text === 'store') ||
        (ts.isBindingElement(node) && (node.propertyName ?? node.name).getText(source) === 'store') ||
        (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) && node.argumentExpression.text === 'store');
      if (named) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${path}:${line + 1}: ${node.getText(source)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
if (found.length) {
  console.error(`✘ the edges call the store directly; call a domain command instead (src/domain):\n  ${found.join('\n  ')}`);
  process.exit(1);
}
console.log(`✔ src/http, src/web, src/realtime and src/cli call no store`);
