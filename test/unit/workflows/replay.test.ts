import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../../src/temporal/create-worker.js';

// The histories of released code (test/histories/releases/<version>/, recorded by
// test/support/record-histories.ts): a workflow change that would break workflows already running
// in production fails here, before it ships. test/histories/pre-release/ holds what was recorded
// before the first release, against patch branches since collapsed; it is kept, never replayed
// (docs/versioning.md).
const here = path.dirname(fileURLToPath(import.meta.url));
const releasesDir = path.join(here, '../../histories/releases');
const releases = fs.readdirSync(releasesDir).filter((d) => fs.statSync(path.join(releasesDir, d)).isDirectory());
const files = releases.flatMap((r) =>
  fs
    .readdirSync(path.join(releasesDir, r))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `${r}/${f}`),
);
const load = (f: string): unknown => JSON.parse(fs.readFileSync(path.join(releasesDir, f), 'utf8'));
/** A payload's data as the CLI's JSON export writes it: base64 of the JSON. */
const decode = (data?: string): unknown => (data ? JSON.parse(Buffer.from(data, 'base64').toString('utf8')) : null);
const quiet = { logger: undefined };
const silent = () => {};
const bundleLogger = { trace: silent, debug: silent, info: silent, warn: silent, error: console.error, log: silent };

describe('workflow replay', () => {
  // Bundled once for every history (given a path, each replay bundled the code again: about 0.4 s
  // each, most of the unit project's time, issue 38 item 5).
  let current: { code: string };
  let incompatible: { code: string };
  beforeAll(async () => {
    current = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: bundleLogger });
    incompatible = await bundleWorkflowCode({
      workflowsPath: path.join(here, '../../support/incompatible-workflows/index.ts'),
      logger: bundleLogger,
    });
  }, 120_000);

  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  it.each(files)(
    'replays %s against the current workflow code without a determinism error',
    async (file) => {
      await Worker.runReplayHistory({ workflowBundle: current, ...quiet }, load(file), file);
    },
    60_000,
  );

  it('has, for the first release, a history of each path the recorder knows', () => {
    expect(files.filter((f) => f.startsWith('0.1.0/')).map((f) => f.slice('0.1.0/'.length))).toEqual(
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
      ]),
    );
  });

  it.each([
    // Release 0.2.0 (issue 22).
    [
      '0.2.0',
      'partner-job-route-amended-rebooked.json',
      ['partner-job-booking-as-activities', 'partner-amend-route-and-fare', 'partner-rebook-cancelled'],
    ],
    ['0.2.0', 'booking-route-amended-redispatched.json', ['amend-route-and-fare']],
    ['0.2.0', 'booking-exchanged-completed.json', ['exchange-fleets']],
    // Release 0.3.0 (issue 23): every booking of it carries the marker; this one takes each new turn.
    ['0.3.0', 'booking-dropped-passenger-told-receipt.json', ['passenger-told-at-every-turn']],
    ['0.3.0', 'booking-unassigned-backoff.json', ['passenger-told-at-every-turn']],
    ['0.3.0', 'booking-accepted-ahead-not-confirmed.json', ['passenger-told-at-every-turn', 'confirm-on-the-day']],
    ['0.3.0', 'booking-offered-to-named-driver.json', ['ops-offer-to-driver']],
    // Release 0.4.0 (issues 24 and 25).
    ['0.4.0', 'booking-claimed-from-board.json', ['claim-upcoming']],
    ['0.4.0', 'licence-three-day-warned.json', ['licence-three-day-warning']],
    ['0.4.0', 'subscription-collection-started.json', ['collect-invoices']],
    ['0.4.0', 'booking-late-accept-window.json', ['late-accept-window']],
    ['0.4.0', 'booking-group-offer-won.json', ['group-offers']],
  ] as const)('has, for release %s, %s: a path its patches added, carrying its patch markers', (release, file, ids) => {
    expect(files).toContain(`${release}/${file}`);
    // The CLI's JSON export: a patch marker's id is in its details, base64 JSON.
    type Marker = { markerName?: string; details?: Record<string, { payloads?: { data?: string }[] }> };
    const history = load(`${release}/${file}`) as { events: { markerRecordedEventAttributes?: Marker }[] };
    const markers = history.events.flatMap((e) => {
      const m = e.markerRecordedEventAttributes;
      const data = m?.markerName === 'core_patch' ? m.details?.['patch-data']?.payloads?.[0]?.data : undefined;
      return data ? [(decode(data) as { id: string }).id] : [];
    });
    expect(markers, file).toEqual(expect.arrayContaining([...ids]));
  });

  // Release 1.0.0: every booking runs version 2 (docs/versioning.md), and its new path is kept.
  it('has, for release 1.0.0, every booking on bookingWorkflowV2 and the paths version 2 added', () => {
    type Event = {
      workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } };
      markerRecordedEventAttributes?: { details?: Record<string, { payloads?: { data?: string }[] }> };
      workflowExecutionUpdateAcceptedEventAttributes?: {
        acceptedRequest?: { input?: { name?: string; args?: { payloads?: { data?: string }[] } } };
      };
    };
    const bookings = files.filter((f) => f.startsWith('1.0.0/booking-'));
    expect(bookings.length).toBeGreaterThanOrEqual(23);
    for (const f of bookings) {
      const [start] = (load(f) as { events: Event[] }).events;
      expect(start?.workflowExecutionStartedEventAttributes?.workflowType?.name, f).toBe('bookingWorkflowV2');
    }
    const tap = (load('1.0.0/booking-group-card-opened-one-tap.json') as { events: Event[] }).events;
    // The opened card is read at the cut (a local activity), not signalled...
    const localActivities = tap.flatMap((e) => {
      const data = e.markerRecordedEventAttributes?.details?.['data']?.payloads?.[0]?.data;
      return data ? [(decode(data) as { activity_type?: string }).activity_type] : [];
    });
    expect(localActivities).toEqual(expect.arrayContaining(['cardsOpened', 'recordPayment']));
    // ...and the trip ends with the driver's payment on board: no 'completed' report before it.
    const reported = tap.flatMap((e) => {
      const req = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
      return req?.name === 'reportTrip' ? [(decode(req.args?.payloads?.[0]?.data) as { event: string }).event] : [];
    });
    expect(reported).toEqual(['en_route', 'arrived', 'on_board']);
  });

  // Negative controls: a replay that cannot fail would prove nothing.
  it.each([
    '0.1.0/quote-redeemed.json',
    '0.1.0/booking-cascade-completed.json',
    '0.1.0/booking-paged-cascade-reported-trip.json',
    '0.1.0/booking-en-route-settled.json',
    '1.0.0/booking-cascade-completed.json',
    '1.0.0/booking-group-card-opened-one-tap.json',
  ])(
    'fails to replay %s against an incompatible change of its workflow',
    async (file) => {
      await expect(
        Worker.runReplayHistory({ workflowBundle: incompatible, ...quiet }, load(file), 'incompatible'),
      ).rejects.toBeInstanceOf(DeterminismViolationError);
    },
    60_000,
  );
});
