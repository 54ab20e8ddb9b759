import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../../src/temporal/create-worker.js';

// Histories recorded from real runs (test/support/record-histories.ts). A workflow change that
// would break workflows already running in production fails here, before it ships.
const here = path.dirname(fileURLToPath(import.meta.url));
const historiesDir = path.join(here, '../../histories');
const files = fs.readdirSync(historiesDir).filter((f) => f.endsWith('.json'));
const load = (f: string): unknown => JSON.parse(fs.readFileSync(path.join(historiesDir, f), 'utf8'));
const quiet = { logger: undefined };

describe('workflow replay', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  it.each(files)('replays %s against the current workflow code without a determinism error', async (file) => {
    await Worker.runReplayHistory({ workflowsPath: WORKFLOWS_PATH, ...quiet }, load(file), file);
  }, 60_000);

  it('has a booking history for each path recorded so far', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'booking-cascade-completed.json',
        'booking-confirmed-amended-cancelled.json',
        'booking-paged-cascade-reported-trip.json',
        'booking-unassigned-backoff.json',
        'booking-no-show.json',
        'booking-prebooked.json',
        'booking-en-route-settled.json',
        'booking-passenger-no-show.json',
        'subscription-billed-cancelled.json',
        'licence-reminded.json',
        'booking-operator-fleet.json',
        'partner-job-held-amend-cancelled.json',
        'partner-job-local-booked-amended-cancelled.json',
        'partner-delivery-retried-delivered.json',
        'booking-first-card-one-task.json',
        'booking-first-card-with-record.json',
        'booking-first-card-with-record-let-go.json',
        'booking-driver-suspended.json',
        'booking-suspended-on-board-ended.json',
        'driver-suspension-signalled.json',
        'subscription-extended.json',
        // Extensions past today's bounds (200 days, then 80: a 370-day trial), accepted before them.
        'subscription-extended-before-bounds.json',
      ]),
    );
  });

  // Negative controls: a replay that cannot fail would prove nothing.
  it.each(['quote-redeemed.json', 'booking-cascade-completed.json', 'booking-paged-cascade-reported-trip.json', 'booking-en-route-settled.json'])(
    'fails to replay %s against an incompatible change of its workflow',
    async (file) => {
      const incompatible = path.join(here, '../../support/incompatible-workflows/index.ts');
      await expect(Worker.runReplayHistory({ workflowsPath: incompatible, ...quiet }, load(file), 'incompatible')).rejects.toBeInstanceOf(
        DeterminismViolationError,
      );
    },
    60_000,
  );
});
