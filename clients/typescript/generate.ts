/**
 * Regenerates clients/typescript/src/schema.d.ts from the OpenAPI document
 * Foyer serves (`npm run client:generate`): starts Foyer in this process on
 * an in-memory SQLite database, reads `GET /api/openapi.json`, and turns it
 * into types with openapi-typescript. Nothing is fetched from elsewhere.
 *
 * `schemaSource()` is what the test compares the committed file with.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openTestDatabase } from '../../test/support/databases.ts';
import { startServer } from '../../test/support/server.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('./src/schema.d.ts', import.meta.url));

const HEADER = `/**
 * The Foyer API's types, generated from the OpenAPI document Foyer serves
 * (GET {API_PREFIX}/openapi.json) by openapi-typescript. Do not edit:
 * regenerate with \`npm run client:generate\`.
 */

`;

/** The served OpenAPI document, as a running Foyer answers it. */
export async function servedDocument(): Promise<Record<string, unknown>> {
  const db = await openTestDatabase('sqlite');
  const server = await startServer(db.store);
  try {
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  } finally {
    await server.close();
    await db.dispose();
  }
}

/** The source of schema.d.ts for `document`. */
export async function schemaSource(document: Record<string, unknown>): Promise<string> {
  return HEADER + astToString(await openapiTS(document as never));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SCHEMA_FILE, await schemaSource(await servedDocument()));
  console.log(`wrote ${SCHEMA_FILE}`);
}
