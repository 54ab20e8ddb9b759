import type { AmendInput } from '../../../workflows/bookings/definitions.js';
import type { JobSpec } from '../../model/bookings.js';
import { defaultVehicleClass, needsWheelchair, seatsGroup } from './vehicle.js';

/**
 * An amendment is a partial request applied to a booked job: the pickup time, passengers, vehicle
 * class, wheelchair access and notes may change, and (partner intake, which re-prices the job) the
 * pickup, drop-off and fare, the places only until the driver is on the way. Applied through
 * src/bookings/amend.ts.
 */
export type BookingAmendment = AmendInput;

/**
 * What the booking workflow is asked to change, with the rules a new request gets: a group that
 * outgrows its class with no class named gets the spec's class for its size (vehicle.ts), and a
 * class named or chosen brings its wheelchair access unless the amendment says otherwise.
 * Only what changes is sent; an amendment that names everything (partner intake's: the whole job,
 * mapped as a new one would be) is sent as it is.
 */
export function amendmentInput(current: Pick<JobSpec, 'passengers' | 'vehicleType'>, a: BookingAmendment): AmendInput {
  const out: AmendInput = { ...a };
  if (a.vehicleType === undefined && a.passengers !== undefined && !seatsGroup(current.vehicleType, a.passengers)) {
    out.vehicleType = defaultVehicleClass(a.passengers);
  }
  if (out.vehicleType !== undefined && a.wheelchair === undefined) out.wheelchair = needsWheelchair(out.vehicleType);
  return out;
}
