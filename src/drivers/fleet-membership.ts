import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import * as drivers from './store.js';

// Who is in an operator's fleet is the operator's say. An applicant may ask to join a fleet; the
// operator sees the request and accepts or refuses it, and can take a driver out of its fleet
// later. Each answer is recorded with the operator and the key it came through. An operator only
// ever finds its own fleet's requests and drivers: anything else is "not found", never "forbidden",
// so nothing tells it that another fleet's driver or request exists.

export interface FleetRequest {
  id: string;
  driverId: string;
  name: string;
  phone: string;
  driverStatus: drivers.DriverStatus;
  tier: drivers.DriverRow['tier'];
  vehicle: string;
  registration: string | null;
  seats: number;
  wheelchairAccessible: boolean;
  licensingAuthority: string | null;
  requestedAt: string;
}

export interface FleetRequestAnswer {
  id: string;
  driverId: string;
  status: 'granted' | 'refused';
  decidedAt: string;
}

/**
 * The partner operator as this area needs it: who it is and the fleet it runs (a partner from
 * src/partners/store.ts fits). Named here so src/drivers does not import src/partners, which imports
 * src/drivers (docs/architecture.md, imports one way).
 */
export type FleetOperator = { id: string; fleetId: string | null };

/** The operator's key, when the request came through one: recorded with each answer. */
export type OperatorActor = { operator: FleetOperator; keyId: string | null };

const actor = (a: OperatorActor): drivers.FleetActor => ({ kind: 'operator', id: a.operator.id, key: a.keyId });

export async function fleetRequestsFor(s: Pick<Services, 'sql'>, operator: FleetOperator): Promise<FleetRequest[]> {
  if (!operator.fleetId) return [];
  const rows = await drivers.pendingRequestsForFleet(s.sql, operator.fleetId);
  return rows.map((r) => ({
    id: r.id,
    driverId: r.driver_id,
    name: r.name,
    phone: r.phone,
    driverStatus: r.status,
    tier: r.tier,
    vehicle: r.vehicle_description,
    registration: r.vehicle_registration,
    seats: r.seats,
    wheelchairAccessible: r.wheelchair_accessible,
    licensingAuthority: r.licensing_authority,
    requestedAt: r.requested_at.toISOString(),
  }));
}

/** Accepts (the driver joins the fleet) or refuses a request to join the operator's fleet. */
export async function answerFleetRequest(
  s: Pick<Services, 'sql'>,
  who: OperatorActor,
  requestId: string,
  answer: 'accept' | 'refuse',
  reason: string | null,
): Promise<FleetRequestAnswer> {
  const notFound = () => Refusal.notFound('fleet_request_not_found', `No request ${requestId} to join your fleet.`);
  if (!who.operator.fleetId) throw notFound();
  const decision = answer === 'accept' ? 'granted' : 'refused';
  const outcome = await drivers.decideFleetRequest(s.sql, {
    requestId,
    fleetId: who.operator.fleetId,
    decision,
    by: actor(who),
    reason,
  });
  if (outcome.result === 'not_found') throw notFound();
  if (outcome.result === 'in_another_fleet') {
    throw Refusal.conflict('driver_in_another_fleet', 'This driver is already in another fleet.');
  }
  const r = outcome.request;
  // The same answer again is a retry; a different one comes too late.
  if (outcome.result === 'already_decided' && r.status !== decision) {
    throw Refusal.conflict('fleet_request_decided', `This request has already been answered (${r.status}).`);
  }
  return { id: r.id, driverId: r.driver_id, status: decision, decidedAt: (r.decided_at ?? new Date()).toISOString() };
}

/** Takes a driver out of the operator's fleet: no more of its jobs can be given to them. */
export async function removeFleetDriver(
  s: Pick<Services, 'sql'>,
  who: OperatorActor,
  driverId: string,
  reason: string | null,
): Promise<void> {
  const removed = who.operator.fleetId
    ? await drivers.removeFromFleet(s.sql, { driverId, fleetId: who.operator.fleetId, by: actor(who), reason })
    : false;
  if (!removed) throw Refusal.notFound('driver_not_in_fleet', `No driver ${driverId} in your fleet.`);
}
