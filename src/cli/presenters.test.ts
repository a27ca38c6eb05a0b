import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { presentWebhook as apiShape } from '../http/presenters/webhook.ts';
import type { WebhookEndpoint } from '../domain/webhooks/types.ts';
import { presentWebhook } from './presenters.ts';

describe('the CLI presenters', () => {
  it('show a webhook endpoint exactly as the API does', () => {
    const endpoint = {
      id: '6f1c1d2e-8a0b-4c1d-9e2f-3a4b5c6d7e8f',
      organizationId: 'a1b2c3d4-0000-4000-8000-000000000000',
      url: 'https://hooks.example.com/foyer',
      events: ['meeting.created'],
      description: 'CRM',
      enabled: false,
      disabledReason: 'failing since yesterday',
      createdAt: new Date('2026-11-01T10:00:00Z'),
    } as unknown as WebhookEndpoint;
    assert.deepEqual(presentWebhook(endpoint), apiShape(endpoint));
    assert.deepEqual(Object.keys(presentWebhook(endpoint)), Object.keys(apiShape(endpoint)));
  });
});
