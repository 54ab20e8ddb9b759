import type { Partner } from '../../partners/store.js';
import { normalisePassengerPhone } from '../../passengers/phone.js';
import { Refusal, type RefusedField } from '../../refusal.js';
import type { PartnerJob } from '../../schemas/partner-job.js';
import { normaliseFlightNumber } from '../../screening/flight-number.js';
import { screenFreeText } from '../../screening/free-text.js';
import type { Passenger } from '../passenger-input.js';
import { tripRequest, type TripBookingRequest } from './index.js';
import { readVehicleName } from './vehicle.js';

// A PartnerJob (spec 2.4), new or amend, from whoever sends one: partner intake (/v1/jobs), the
// operator bridge (/v1/operator/jobs), the supplier and aggregator hooks. The sender is the
// source (partner, operator or supplier), its job reference the request's identity. Problems are
// `invalid_job` refusals, their fields named by the job's place in the body (`at`: its index in a
// list, null when the body is the job: "[3].passengerPhone", "passengerPhone"), so one bad job is
// one rejected line of a 207, not a 400 for the batch.

/** A job's field as a refusal names it: in the body, or in the body's item `at` (of its "jobs" list, `inJobs`). */
const jobField = (at: number | null, name: string, inJobs = false) =>
  at === null ? name : inJobs ? `jobs[${at}].${name}` : `[${at}].${name}`;

export function fromPartnerJob(
  partner: Partner,
  job: PartnerJob,
  at: number | null,
  /** The body was {"jobs": [...]}: its items are named jobs[3]. */
  inJobs = false,
): TripBookingRequest {
  const passenger = partnerPassenger(partner, job, at, inJobs);
  // Free text (spec 2.4), never a refusal: a name no class matches books the group's class and is kept for the driver.
  const vehicle = readVehicleName(job.vehicleType);
  // Pricing names the places and time as they have always been told to senders, in its messages
  // too ("Could not locate body[1].pickup ...").
  const label = at === null ? 'body' : inJobs ? `body.jobs[${at}]` : `body[${at}]`;
  return tripRequest({
    source: partner.kind,
    fields: {
      pickup: `${label}.pickup`,
      dropoff: `${label}.dropoff`,
      departAt: `${label}.pickupTime`,
      vehicleType: `${label}.vehicleType`,
    },
    pickup: job.pickup,
    dropoff: job.dropoff,
    departAt: job.pickupTime,
    passengers: job.passengers,
    vehicle: vehicle.vehicle,
    vehicleUnrecognised: vehicle.unrecognised,
    // A sender names a class in free text, and has always had it kept: dispatch still needs seats for everyone.
    tooSmall: 'keep',
    passenger,
    agreedFarePence: job.fare === undefined ? undefined : Math.round(job.fare * 100),
    pickupMayBePast: true,
    awaitEmailConfirmation: false,
    senderJob: {
      partnerId: partner.id,
      jobRef: job.jobRef,
      operatorId: partner.kind === 'operator' ? partner.id : null,
    },
  });
}

function partnerPassenger(partner: Partner, job: PartnerJob, at: number | null, inJobs: boolean): Passenger {
  const errors: RefusedField[] = [];
  const screened = (name: string, value: string | undefined, max: number, multiline = false): string | null => {
    if (value === undefined || value.trim() === '') return null;
    const r = screenFreeText(name, value, { maxLength: max, multiline });
    if (r.ok) return r.value;
    errors.push({ name: jobField(at, name, inJobs), message: r.message });
    return null;
  };
  const name = screened('passengerName', job.passengerName, 100);
  const notes = screened('notes', job.notes, 500, true);
  let phone = '';
  if (job.passengerPhone?.trim()) {
    const p = normalisePassengerPhone(job.passengerPhone);
    if (p.ok) phone = p.e164;
    else errors.push({ name: jobField(at, 'passengerPhone', inJobs), message: p.reason });
  }
  let flightNumber: string | null = null;
  if (job.flightNumber?.trim()) {
    const f = normaliseFlightNumber(job.flightNumber);
    if (f.ok) flightNumber = f.value;
    else errors.push({ name: jobField(at, 'flightNumber', inJobs), message: f.reason });
  }
  if (errors.length > 0) throw Refusal.invalid('invalid_job', 'The job has invalid fields.', { fields: errors });
  return {
    // The sender knows its passenger; the driver's card needs a name to ask for.
    name: name ?? `${partner.name} passenger`,
    phone,
    email: job.passengerEmail?.toLowerCase() ?? null,
    emailVerified: false,
    paymentMethod: 'pay_driver',
    flightNumber,
    notes,
    agent: partner.name,
    needs: { assistanceDog: job.assistanceDog ?? false, helpFindingVehicle: job.helpFindingVehicle ?? false },
  };
}
