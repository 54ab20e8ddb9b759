import { createHash, randomBytes } from 'node:crypto';
import type { StaffMember } from '../auth/staff.js';
import { recordStaffAction } from '../auth/staff.js';
import { renderDriverApprovedText, renderDriverRejectedText } from '../notify/templates.js';
import { Refusal } from '../refusal.js';
import { isHomeArea } from './home-areas.js';
import type { Services } from '../services.js';
import { MAX_DOCUMENT_BYTES, MAX_DOCUMENTS } from './application-limits.js';
import { takeSuspendedDriverOffJobs } from './suspension.js';
import * as drivers from './store.js';

// From applicant to approved driver, and the operator's say over a driver from then on. Every
// staff action is recorded (who, when, why); approval starts the driver's subscription (and its
// free trial); suspension takes the driver offline, ends their sessions and takes them off every
// booking they are in (src/drivers/suspension.ts). A fleet an applicant names is only asked for:
// its operator answers (src/drivers/fleet-membership.ts), or staff grant it when approving, with
// the fleet in front of them.

const SIGNATURES: Array<[DriverDocumentType, number[]]> = [
  ['application/pdf', [0x25, 0x50, 0x44, 0x46]], // %PDF
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
];
type DriverDocumentType = drivers.DriverDocument['contentType'];

/** The type a document's bytes say it is; a declared type is never trusted on its own. */
export function sniffDocumentType(data: Buffer): DriverDocumentType | null {
  for (const [type, magic] of SIGNATURES) if (magic.every((b, i) => data[i] === b)) return type;
  return null;
}

const HASH_CHUNK_CHARS = 64 * 1024; // a multiple of 4: each slice decodes on its own

/**
 * A document's size, first bytes and SHA-256, read from its base64 without ever holding the whole
 * file decoded: it is stored as sent (decoded by Postgres), so an application costs its body and
 * little more. Null when the text cannot be base64 (the schema has already refused other characters).
 */
export function readBase64Document(
  text: string,
): { base64: string; sizeBytes: number; head: Buffer; sha256: string } | null {
  if (text.length % 4 === 1) return null;
  // Postgres' decoder wants the padding that Node's lets go.
  const base64 = text.length % 4 === 0 ? text : text + '='.repeat(4 - (text.length % 4));
  if (base64.slice(0, -2).includes('=')) return null;
  const hash = createHash('sha256');
  for (let i = 0; i < base64.length; i += HASH_CHUNK_CHARS)
    hash.update(Buffer.from(base64.slice(i, i + HASH_CHUNK_CHARS), 'base64'));
  return {
    base64,
    sizeBytes: Buffer.byteLength(base64, 'base64'),
    head: Buffer.from(base64.slice(0, 12), 'base64'),
    sha256: hash.digest('hex'),
  };
}

export async function applyAsDriver(
  s: Pick<Services, 'sql' | 'notifier'>,
  application: drivers.DriverApplication,
  uploads: Array<{ kind: drivers.DriverDocument['kind']; contentType: string; base64: string }>,
): Promise<{ driverId: string; status: drivers.DriverStatus; requestedFleetId: string | null }> {
  if (uploads.length > MAX_DOCUMENTS) {
    throw Refusal.tooLarge('too_many_documents', `At most ${MAX_DOCUMENTS} documents.`, {
      field: { name: 'documents', message: `at most ${MAX_DOCUMENTS}` },
    });
  }
  const documents = uploads.map((u, i): drivers.DriverDocument => {
    const doc = readBase64Document(u.base64);
    if (!doc) {
      throw Refusal.invalid('validation_failed', `Document ${i + 1} is not valid base64.`, {
        field: { name: `documents.${i}.data_base64`, message: 'must be base64' },
      });
    }
    if (doc.sizeBytes === 0 || doc.sizeBytes > MAX_DOCUMENT_BYTES) {
      throw Refusal.tooLarge(
        'document_too_large',
        `Document ${i + 1} must be between 1 byte and ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB.`,
      );
    }
    const sniffed = sniffDocumentType(doc.head);
    if (!sniffed || sniffed !== u.contentType) {
      throw Refusal.unsupported(
        'document_type',
        `Document ${i + 1} must be a PDF, JPEG or PNG, and be what it says it is.`,
        {
          field: { name: `documents.${i}.content_type`, message: 'does not match the file' },
        },
      );
    }
    return { kind: u.kind, contentType: sniffed, base64: doc.base64, sizeBytes: doc.sizeBytes, sha256: doc.sha256 };
  });
  for (const kind of ['driver_licence', 'vehicle_licence'] as const) {
    if (!documents.some((d) => d.kind === kind)) {
      throw Refusal.invalid('documents_missing', `The ${kind.replace('_', ' ')} document is required.`, {
        field: { name: 'documents', message: `needs a ${kind}` },
      });
    }
  }
  if (application.homeArea !== null && !isHomeArea(application.homeArea)) {
    throw Refusal.invalid('unknown_home_area', `${application.homeArea} is not a licensing area we know.`, {
      field: { name: 'home_area', message: 'is not one we know: choose the council that licensed you from the list' },
    });
  }
  if (application.tier === 'partner' && !application.requestedFleetId) {
    throw Refusal.invalid('validation_failed', 'A partner-fleet driver names the fleet they ask to join.', {
      field: { name: 'partner_fleet_id', message: 'is required for tier partner' },
    });
  }
  if (application.requestedFleetId && !(await drivers.partnerFleetExists(s.sql, application.requestedFleetId))) {
    throw Refusal.unprocessable('unknown_partner_fleet', `No partner fleet ${application.requestedFleetId}.`, {
      field: { name: 'partner_fleet_id', message: 'is not a partner fleet' },
    });
  }
  const today = new Date().toISOString().slice(0, 10);
  for (const [field, date] of [
    ['driver_licence_expires', application.driverLicenceExpires],
    ['vehicle_licence_expires', application.vehicleLicenceExpires],
  ] as const) {
    if (date < today) {
      throw Refusal.invalid('licence_expired', 'A licence that has already expired cannot be used to apply.', {
        field: { name: field, message: 'is in the past' },
      });
    }
  }
  if (await drivers.liveDriverWithPhone(s.sql, application.phone)) {
    throw Refusal.conflict(
      'already_applied',
      'A driver with this phone number has already applied or is already driving with us.',
    );
  }
  const driverId = `drv_${randomBytes(8).toString('hex')}`;
  await drivers.insertApplication(s.sql, driverId, application, documents);
  return { driverId, status: 'applicant', requestedFleetId: application.requestedFleetId };
}

export type DriverDecision = 'approve' | 'reject' | 'suspend' | 'reinstate';
const MOVES: Record<DriverDecision, { from: drivers.DriverStatus[]; to: drivers.DriverStatus }> = {
  approve: { from: ['applicant'], to: 'approved' },
  reject: { from: ['applicant'], to: 'rejected' },
  suspend: { from: ['approved'], to: 'suspended' },
  reinstate: { from: ['suspended'], to: 'approved' },
};

/**
 * A staff decision on a driver. `grantFleetId`, on approval only, also grants the fleet the driver
 * asked to join: staff name it, so nobody grants a fleet they have not seen. Without it the request
 * stays with the fleet's operator. Either way the decision's record says which fleet was asked for.
 */
export async function decideDriver(
  s: Pick<Services, 'sql' | 'notifier' | 'subscriptions' | 'licences' | 'suspensions' | 'config'>,
  staff: StaffMember,
  driverId: string,
  decision: DriverDecision,
  reason: string | null,
  grantFleetId: string | null = null,
): Promise<drivers.DriverRow> {
  if (grantFleetId !== null && decision !== 'approve') {
    throw Refusal.invalid('validation_failed', 'A fleet is granted only with an approval.', {
      field: { name: 'grant_fleet_id', message: 'only with action approve' },
    });
  }
  const requested = await drivers.pendingFleetRequest(s.sql, driverId);
  let grant: drivers.FleetRequestRow | null = null;
  if (grantFleetId !== null) {
    const current = await drivers.findDriver(s.sql, driverId);
    if (!current) throw Refusal.notFound('driver_not_found', `No driver ${driverId}.`);
    // Repeating an approval that already granted this fleet is a retry; anything else names a fleet nobody asked for.
    if (current.partner_fleet_id !== grantFleetId) {
      if (requested?.fleet_id !== grantFleetId) {
        throw Refusal.conflict(
          'no_such_fleet_request',
          `Driver ${driverId} has not asked to join ${grantFleetId}${requested ? ` (they asked for ${requested.fleet_id})` : ''}.`,
        );
      }
      if (current.partner_fleet_id !== null) throw inAnotherFleet(driverId);
      grant = requested;
    }
  }
  const move = MOVES[decision];
  const moved = await drivers.moveDriverStatus(s.sql, driverId, move.from, move.to);
  if (!moved) {
    const current = await drivers.findDriver(s.sql, driverId);
    if (!current) throw Refusal.notFound('driver_not_found', `No driver ${driverId}.`);
    // Repeating a decision that has already taken effect is a retry, not a conflict. A repeated
    // suspension finishes what a first attempt that died after writing the status may have left.
    if (current.status !== move.to)
      throw Refusal.conflict(
        'invalid_driver_transition',
        `Driver ${driverId} is ${current.status}; cannot ${decision}.`,
      );
    if (decision === 'suspend') await takeSuspendedDriverOffJobs(s, current);
    if (!grant) return current;
    // Approved already: the grant alone is new, and goes on the record as such.
    await recordStaffAction(s.sql, {
      staffId: staff.id,
      action: 'driver.fleet_grant',
      subjectKind: 'driver',
      subjectId: driverId,
      reason,
      details: { fleet_id: grant.fleet_id },
    });
    return grantRequested(s, staff, grant, reason, current);
  }
  // Suspension is immediate: the driver comes off their jobs before anything else is written.
  if (decision === 'suspend') await takeSuspendedDriverOffJobs(s, moved);
  await recordStaffAction(s.sql, {
    staffId: staff.id,
    action: `driver.${decision}`,
    subjectKind: 'driver',
    subjectId: driverId,
    reason,
    details: requested ? { requested_fleet_id: requested.fleet_id, fleet_granted: grant !== null } : {},
  });
  const driver = grant ? await grantRequested(s, staff, grant, reason, moved) : moved;
  if (decision === 'approve') {
    await s.subscriptions.start({
      driverId,
      tier: moved.tier,
      approvedAt: moved.status_changed_at ?? new Date(),
    });
    await s.licences.watch(driverId, {
      driverLicenceExpires: isoDay(moved.driver_licence_expires),
      vehicleLicenceExpires: isoDay(moved.vehicle_licence_expires),
    });
    await notifyDriver(s, moved, 'approved', renderDriverApprovedText(s.config.PUBLIC_BASE_URL));
  }
  if (decision === 'reject') {
    await drivers.closeFleetRequests(s.sql, driverId);
    await notifyDriver(s, moved, 'rejected', renderDriverRejectedText());
  }
  return driver;
}

async function grantRequested(
  s: Pick<Services, 'sql'>,
  staff: StaffMember,
  request: drivers.FleetRequestRow,
  reason: string | null,
  driver: drivers.DriverRow,
): Promise<drivers.DriverRow> {
  const outcome = await drivers.decideFleetRequest(s.sql, {
    requestId: request.id,
    fleetId: request.fleet_id,
    decision: 'granted',
    by: { kind: 'staff', id: staff.id, key: null },
    reason,
  });
  if (outcome.result === 'in_another_fleet') throw inAnotherFleet(driver.id);
  // Granted now, or a moment ago by the fleet's operator: either way the driver is in the fleet.
  if (outcome.result === 'already_decided' && outcome.request.status !== 'granted') {
    throw Refusal.conflict(
      'fleet_request_decided',
      `The fleet's operator has already answered this request (${outcome.request.status}).`,
    );
  }
  return { ...driver, partner_fleet_id: request.fleet_id };
}

const inAnotherFleet = (driverId: string) =>
  Refusal.conflict(
    'driver_in_another_fleet',
    `Driver ${driverId} is in another fleet; its operator removes them first.`,
  );

const isoDay = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

async function notifyDriver(
  s: Pick<Services, 'notifier'>,
  d: drivers.DriverRow,
  what: string,
  body: string,
): Promise<void> {
  await s.notifier.send({ channel: 'sms', to: d.phone, body, idempotencyKey: `driver-${what}:${d.id}` });
}
