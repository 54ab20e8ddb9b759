import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { PARTNER_BILLING_WORKFLOW_TYPE, PartnerBillingClient } from '../../../src/billing/partner-billing-client.js';
import { LOCATION_WATCH_WORKFLOW_TYPE, LocationWatchClient } from '../../../src/drivers/location-watch-client.js';
import { SUSPENSION_WORKFLOW_TYPE, SuspensionClient } from '../../../src/drivers/suspension-client.js';
import { OPS_WATCH_WORKFLOW_TYPE, OpsWatchClient } from '../../../src/ops/watch-client.js';
import { LOCATION_WATCH_WORKFLOW_ID, suspensionWorkflowId } from '../../../workflows/drivers/definitions.js';
import { PARTNER_BILLING_WORKFLOW_ID } from '../../../workflows/billing/definitions.js';
import { OPS_WATCH_WORKFLOW_ID } from '../../../workflows/ops/definitions.js';

// The clients of the workflows that are only ever started (the watches every worker starts, the
// partners' billing, a suspension's): each starts its workflow under its id, and a start that finds
// it running already is no failure; anything else is passed on. Against a stand-in Temporal client.

function standIn(fails?: Error) {
  const started: { type: string; workflowId: string; taskQueue: string }[] = [];
  const client = {
    workflow: {
      start: async (type: string, o: { workflowId: string; taskQueue: string }) => {
        started.push({ type, workflowId: o.workflowId, taskQueue: o.taskQueue });
        if (fails) throw fails;
      },
    },
  } as unknown as Client;
  return { client, started };
}

const suspendedAt = new Date('2026-01-01T10:00:00Z');
const CLIENTS = [
  {
    type: OPS_WATCH_WORKFLOW_TYPE,
    id: OPS_WATCH_WORKFLOW_ID,
    start: (c: Client) => new OpsWatchClient(c, 'tq').ensure(),
  },
  {
    type: LOCATION_WATCH_WORKFLOW_TYPE,
    id: LOCATION_WATCH_WORKFLOW_ID,
    start: (c: Client) => new LocationWatchClient(c, 'tq').ensure(),
  },
  {
    type: PARTNER_BILLING_WORKFLOW_TYPE,
    id: PARTNER_BILLING_WORKFLOW_ID,
    start: (c: Client) => new PartnerBillingClient(c, 'tq').ensure(),
  },
  {
    type: SUSPENSION_WORKFLOW_TYPE,
    id: suspensionWorkflowId('d1', suspendedAt),
    start: (c: Client) => new SuspensionClient(c, 'tq').start('d1', suspendedAt),
  },
];

describe('the start-once clients', () => {
  it.each(CLIENTS)('start $type under its id, running already being no failure', async ({ type, id, start }) => {
    const fresh = standIn();
    await start(fresh.client);
    expect(fresh.started).toEqual([{ type, workflowId: id, taskQueue: 'tq' }]);
    await start(standIn(new WorkflowExecutionAlreadyStartedError('started', id, type)).client);
    const bug = new TypeError('bug');
    await expect(start(standIn(bug).client)).rejects.toBe(bug);
  });
});
