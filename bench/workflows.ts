import {
  condition,
  defineSignal,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { BookingSearchAttributes } from '../workflows/bookings/definitions.js';
import type * as shapeActivities from './shape-activities.js';

/** Does nothing: the baseline the benchmarks compare real workflows against. */
export async function noopWorkflow(): Promise<void> {}

export const signalRoundTripSignal = defineSignal('signalRoundTrip');

/** Waits for one signal, then completes: the benchmarks' start + signal round trip. */
export async function signalRoundTripWorkflow(): Promise<void> {
  let signalled = false;
  setHandler(signalRoundTripSignal, () => {
    signalled = true;
  });
  await condition(() => signalled);
}

// A booking's shape in Temporal with none of its business work (bench/booking-shape.ts): the same
// kinds of steps a city booking's history holds (bench/city.ts prints them), each a no-op, upserting
// the booking's own search attributes (registered on every bench stack).
export const shapeStepUpdate = defineUpdate<void, [ShapeStep]>('shapeStep');
export type ShapeStep = 'created' | 'accepted' | 'en_route' | 'arrived' | 'on_board' | 'paid';

const shape = proxyLocalActivities<typeof shapeActivities>({ startToCloseTimeout: '10 s' });
const shapeMessages = proxyActivities<typeof shapeActivities>({ startToCloseTimeout: '10 s' });

/**
 * Each update runs the local activities its real step runs (the record and first card; the award
 * and the group's other card closed; one status write a trip step; the payment and its status) and
 * upserts the booking's search attributes; the offer's and the no-show watch's timers are started
 * and cancelled as a booking's are, and the acceptance sends the passenger one message (an activity).
 */
export async function bookingShapeWorkflow(
  input: { offerSeconds?: number; firstCardOnly?: boolean } = {},
): Promise<void> {
  let at: ShapeStep | undefined;
  let messages: Promise<unknown> = Promise.resolve();
  setHandler(shapeStepUpdate, async (step) => {
    await shape.shapeStep(step);
    // (The first card alone is one local activity, as a booking dispatched at once sends it.)
    const second = step === 'created' ? !input.firstCardOnly : step === 'accepted' || step === 'paid';
    if (second) await shape.shapeStep(`${step}, second`);
    upsertSearchAttributes([
      { key: BookingSearchAttributes.status, value: step },
      { key: BookingSearchAttributes.driver, value: step === 'created' ? null : 'driver-1' },
    ]);
    if (step === 'accepted') messages = shapeMessages.shapeMessage(step);
    at = step;
  });
  await condition(() => at !== undefined);
  await condition(() => at !== 'created', `${input.offerSeconds ?? 25} s`); // the offer's timeout
  await condition(() => at === 'on_board' || at === 'paid', '10 minutes'); // the no-show watch
  await condition(() => at === 'paid');
  await messages;
}
