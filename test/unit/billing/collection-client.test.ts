import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { InvoiceCollectionClient } from '../../../src/billing/collection-client.js';

// The invoice collection client tells the webhook whether a collection ran for the invoice: false
// when none does (the webhook then marks the record itself). Against a stand-in Temporal client.

const key = { account: 'driver', accountId: 'd1', weekStart: '2026-01-05T00:00:00.000Z' } as const;
const event = { eventId: 'ev1', outcome: 'succeeded', amountPence: 1200, providerRef: 'pi_1' } as const;

function standIn(fails?: Error) {
  const ids: string[] = [];
  const client = {
    workflow: {
      getHandle: (id: string) => {
        ids.push(id);
        return {
          signal: async () => {
            if (fails) throw fails;
          },
        };
      },
    },
  } as unknown as Client;
  return { collections: new InvoiceCollectionClient(client), ids };
}

describe('the invoice collection client', () => {
  it("signals the invoice's collection, and answers false when none runs", async () => {
    const { collections, ids } = standIn();
    expect(await collections.payment(key, event)).toBe(true);
    expect(ids[0]).toMatch(/^invoice-collection:/);
    const none = new WorkflowNotFoundError('workflow not found', ids[0]!, undefined);
    expect(await standIn(none).collections.payment(key, event)).toBe(false);
    const bug = new TypeError('bug');
    await expect(standIn(bug).collections.payment(key, event)).rejects.toBe(bug);
  });
});
