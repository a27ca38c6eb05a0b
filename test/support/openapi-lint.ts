/**
 * @module test/support/openapi-lint
 * Lints an OpenAPI document with Spectral's own `spectral:oas` ruleset,
 * in this process and offline (the programmatic packages the
 * `@stoplight/spectral-cli` dev dependency brings; no ruleset is fetched).
 */
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';

// CommonJS packages: their named exports are read off the default export.
const { Document, Spectral } = spectralCore;
const { Json } = spectralParsers;
const { oas } = spectralRulesets;

export interface LintFinding {
  code: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  message: string;
  path: string;
}

const SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;

export async function lintOpenApi(document: unknown): Promise<LintFinding[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await spectral.run(new Document(JSON.stringify(document, null, 2), Json));
  return results.map((r) => ({ code: String(r.code), severity: SEVERITIES[r.severity]!, message: r.message, path: r.path.join('.') }));
}
