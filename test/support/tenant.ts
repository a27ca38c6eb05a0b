/**
 * @module test/support/tenant
 * Sets up an organization, a member and an API key in a database the way
 * the operator CLI would (through the domain), for tests that then drive
 * a separate Foyer process over HTTP.
 */
import { createContext } from '../../src/context.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import { createApiKey } from '../../src/domain/keys.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import type { Organization } from '../../src/domain/types.ts';

export const TEST_PEPPER = 'test-pepper';

export interface Tenant {
  organization: Organization;
  headers: { API_KEY: string; API_SECRET: string };
  apiKeyId: string;
}

export async function createTenant(databaseUrl: string, name = 'Acme Clinic'): Promise<Tenant> {
  const ctx = await createContext(
    { databaseUrl, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: TEST_PEPPER },
    { migrate: true },
  );
  try {
    const organization = await createOrganization(ctx, { name, type: 'basic', slug: `t-${Math.random().toString(36).slice(2, 10)}` });
    const operator = operatorActor(organization);
    await addUser(ctx, operator, { email: 'ann@acme.test', fullName: 'Ann Lee', role: 'ADMIN' });
    const { key, secret } = await createApiKey(ctx, operator, { expiresAt: null });
    return { organization, headers: { API_KEY: key.publicKey, API_SECRET: secret }, apiKeyId: key.id };
  } finally {
    await ctx.close();
  }
}
