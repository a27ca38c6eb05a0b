/**
 * A typed client of the Foyer API: the paths, bodies and answers of the
 * OpenAPI document Foyer serves (schema.d.ts, generated), called through
 * openapi-fetch. Every request carries the key pair. Paths are the
 * document's, with the API prefix (`/api` unless API_PREFIX says otherwise).
 *
 *   const foyer = createFoyerClient({ baseUrl: 'https://meet.example.org', apiKey, apiSecret });
 *   const { data, error } = await foyer.POST('/api/v3/meeting', { body: { ownerEmail: 'ann@clinic.test' } });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type { components, operations, paths } from './schema.d.ts';

export interface FoyerClientOptions {
  /** Foyer's PUBLIC_URL, e.g. `https://meet.example.org` (the paths carry the API prefix). */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof fetch;
}

export type FoyerClient = Client<paths>;

export function createFoyerClient(options: FoyerClientOptions): FoyerClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { API_KEY: options.apiKey, API_SECRET: options.apiSecret },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
