/**
 * @module test/browser/axe
 * axe-core in the page: the accessibility rules of WCAG 2.x A and AA (and
 * axe's best practices), run on the document as it is now. The script is
 * evaluated through the browser's devtools protocol, which the pages'
 * strict CSP does not govern, so no page has to allow it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** The serious and critical violations on `page`, with up to five places each. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => typeof (window as any).axe === 'object'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return (result.violations as any[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: (v.nodes as any[]).slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`) }));
  });
}
