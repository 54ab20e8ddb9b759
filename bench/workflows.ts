import { condition, defineSignal, setHandler } from '@temporalio/workflow';

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
