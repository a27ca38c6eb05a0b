#!/usr/bin/env node
// Part of `npm run layering` (so of `npm test`): a domain command names the
// aggregate ports it uses (`DomainContext<MeetingPorts & PlacePorts>`,
// `LiveContext<WaitingListPorts>`), never the whole `Store`, so its
// signature says which storage it may touch. The contexts default to
// `Store` for the composition root and the edges, which hold everything;
// in src/domain that default would hide what a command touches. So this
// reads each domain module's syntax tree and refuses:
// - `DomainContext` or `LiveContext` without type arguments (the default);
// - `Store` or `StoreConnection` named as a type, except as a type
//   parameter's default (a generic command still sees only its bound);
// - either imported under another name.
// Exempt: the ports themselves (src/domain/ports/), the unit of work
// (context.ts: `transact` hands its listeners the transaction's store) and
// the events' transactional listeners (events.ts), which get the whole
// transaction by design; tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = 'src/domain';
const EXEMPT = new Set(['src/domain/context.ts', 'src/domain/events.ts']);
const CONTEXTS = new Set(['DomainContext', 'LiveContext']);
const WHOLE = new Set(['Store', 'StoreConnection']);

const found = [];
for (const entry of readdirSync(ROOT, { recursive: true })) {
  const path = join(ROOT, String(entry)).split('\\').join('/');
  if (!path.endsWith('.ts') || path.endsWith('.test.ts') || path.startsWith(`${ROOT}/ports/`) || EXEMPT.has(path)) continue;
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const report = (node, why) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${path}:${line + 1}: ${node.getText(source)} (${why})`);
  };
  const visit = (node) => {
    const named = ts.isTypeReferenceNode(node) ? node.typeName : ts.isImportTypeNode(node) ? node.qualifier : undefined;
    if (named) {
      const name = ts.isIdentifier(named) ? named.text : named.right.text;
      if (CONTEXTS.has(name) && !node.typeArguments?.length) report(node, 'the whole Store by default: name the ports it uses');
      const isDefault = ts.isTypeParameterDeclaration(node.parent) && node.parent.default === node;
      if (WHOLE.has(name) && !isDefault) report(node, 'the whole Store: name the ports it uses');
    }
    if (ts.isImportSpecifier(node) && node.propertyName && WHOLE.has(node.propertyName.text)) report(node, 'the whole Store under another name');
    ts.forEachChild(node, visit);
  };
  visit(source);
}
if (found.length) {
  console.error(`✘ domain commands typed by the whole Store; type each by the aggregate ports it uses (src/domain/*-ports.ts, */ports.ts):\n  ${found.join('\n  ')}`);
  process.exit(1);
}
console.log('✔ every domain command names the ports it uses');
