import { TemporalFailure, getExternalWorkflowHandle } from '@temporalio/workflow';
import { acts } from '../activities.js';
import { bookingWorkflowId, driverSuspendedSignal } from '../bookings/definitions.js';
import type { SuspensionInput, SuspensionResult } from './definitions.js';

/**
 * A driver was suspended (`driver-suspension:<driverId>:<at>`): every booking with a job card open
 * to them or a job they hold is told, keyed by its business id (booking:<ref>). Each booking's own
 * workflow decides what that means (withdraw the card, take the job off them, or, with the
 * passenger on board, tell ops), and ignores a repeat, so running this twice changes nothing.
 * The status was written before this started: no new job card can be claimed for the driver, so
 * the bookings read here are all there will be.
 */
export async function driverSuspensionWorkflow({ driverId }: SuspensionInput): Promise<SuspensionResult> {
  const { refs } = await acts.findDriverBookings({ driverId });
  const result: SuspensionResult = { signalled: [], closed: [] };
  await Promise.all(
    refs.map(async (ref) => {
      try {
        await getExternalWorkflowHandle(bookingWorkflowId(ref)).signal(driverSuspendedSignal, { driverId });
        result.signalled.push(ref);
      } catch (err) {
        // The booking's workflow has closed (completed, cancelled): nothing left to take off them.
        if (!(err instanceof TemporalFailure)) throw err;
        result.closed.push(ref);
      }
    }),
  );
  result.signalled.sort();
  result.closed.sort();
  return result;
}
