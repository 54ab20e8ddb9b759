import { receivingJobs } from '../drivers/app.js';
import { normalisePhone } from '../passengers/phone.js';
import type { Services } from '../services.js';
import { searchDriverPage, type DriverRow, type DriverSearch, type DriverStatus } from '../drivers/store.js';
import { documentsOf, fleetEventsOf, fleetRequestsOf, staffActionsOn } from './driver-list-store.js';

// The ops console's driver lists: one page of drivers of a status, searched by name or phone, each
// with everything its card shows (documents, staff actions, fleet requests and history), read in a
// few queries for the whole page. One request per look, however many drivers (issue 24): the
// console used to ask for each driver on its own and ran through its rate limit.

type S = Pick<Services, 'sql'>;

export const DRIVER_PAGE_DEFAULT = 50;
export const DRIVER_PAGE_MAX = 200;

/** A driver as staff see them in lists and in answers to their actions. */
export function driverSummary(d: DriverRow, requestedFleetId: string | null) {
  return {
    id: d.id,
    name: d.name,
    phone: d.phone,
    email: d.email,
    status: d.status,
    tier: d.tier,
    home_area: d.home_area,
    licensing_authority: d.licensing_authority,
    driver_licence_number: d.driver_licence_number,
    driver_licence_expires: d.driver_licence_expires?.toISOString().slice(0, 10) ?? null,
    vehicle_licence_number: d.vehicle_licence_number,
    vehicle_licence_expires: d.vehicle_licence_expires?.toISOString().slice(0, 10) ?? null,
    vehicle: [d.vehicle_make, d.vehicle_model].filter(Boolean).join(' ') || d.vehicle_description,
    vehicle_registration: d.vehicle_registration,
    vehicle_type: d.vehicle_type,
    seats: d.seats,
    wheelchair_accessible: d.wheelchair_accessible,
    applied_at: d.applied_at?.toISOString() ?? null,
    fleet_id: d.partner_fleet_id,
    requested_fleet_id: requestedFleetId,
    online: d.online,
    // An online driver dispatch passes over is shown with why (issue 24): never out of work unseen.
    receiving_jobs: (({ yes, reason, message }) => ({ yes, reason, message }))(receivingJobs(d, new Date())),
  };
}

/**
 * What staff typed, as a search: the words (name, email, id, registration), and, when it reads as a
 * phone number, that number in E.164 (a UK number as written at home, "07400 123456", is the stored
 * +447400123456) and its digits, so part of a number finds it too, typed either way.
 */
export function driverSearch(typed: string | undefined): DriverSearch | null {
  const q = (typed ?? '').trim();
  if (q === '') return null;
  const phoneLike = /^[+\d\s().-]+$/.test(q);
  const phone = phoneLike ? normalisePhone(q, { allowDramaNumbers: true }) : null;
  const digits = q.replace(/\D/g, '');
  const parts =
    phoneLike && digits.length >= 4 ? [digits, ...(digits.startsWith('0') ? [`44${digits.slice(1)}`] : [])] : [];
  return { text: q, phone: phone?.ok ? phone.e164 : null, digits: parts };
}

export async function opsDriverPage(
  s: S,
  q: {
    status?: DriverStatus | undefined;
    q?: string | undefined;
    limit?: number | undefined;
    offset?: number | undefined;
  },
) {
  const limit = Math.min(Math.max(q.limit ?? DRIVER_PAGE_DEFAULT, 1), DRIVER_PAGE_MAX);
  const offset = Math.max(q.offset ?? 0, 0);
  const { rows, total } = await searchDriverPage(s.sql, {
    status: q.status ?? null,
    search: driverSearch(q.q),
    limit,
    offset,
  });
  const ids = rows.map((d) => d.id);
  const [documents, actions, requests, events] = await Promise.all([
    documentsOf(s.sql, ids),
    staffActionsOn(s.sql, ids),
    fleetRequestsOf(s.sql, ids),
    fleetEventsOf(s.sql, ids),
  ]);
  const by = <T extends object>(list: T[], key: (x: T) => string) => {
    const m = new Map<string, T[]>();
    for (const x of list) {
      const k = key(x);
      const had = m.get(k);
      if (had) had.push(x);
      else m.set(k, [x]);
    }
    return (id: string) => m.get(id) ?? [];
  };
  const docsOf = by(documents, (x) => x.driver_id);
  const actionsOf = by(actions, (x) => x.subject_id);
  const requestsOf = by(requests, (x) => x.driver_id);
  const eventsOf = by(events, (x) => x.driver_id);
  return {
    status: q.status ?? null,
    q: q.q?.trim() || null,
    total,
    limit,
    offset,
    next_offset: offset + rows.length < total ? offset + limit : null,
    previous_offset: offset > 0 ? Math.max(0, offset - limit) : null,
    drivers: rows.map((d) => ({
      ...driverSummary(d, d.requested_fleet_id),
      documents: docsOf(d.id).map((x) => ({
        id: x.id,
        kind: x.kind,
        content_type: x.content_type,
        size_bytes: x.size_bytes,
        sha256: x.sha256,
        uploaded_at: x.uploaded_at.toISOString(),
      })),
      actions: actionsOf(d.id).map((a) => ({
        action: a.action,
        reason: a.reason,
        by: a.staff_name,
        role: a.staff_role,
        at: a.at.toISOString(),
        details: a.details,
      })),
      fleet: {
        requests: requestsOf(d.id).map((x) => ({
          id: x.id,
          fleet_id: x.fleet_id,
          fleet_name: x.fleet_name,
          status: x.status,
          requested_at: x.requested_at.toISOString(),
          decided_at: x.decided_at?.toISOString() ?? null,
        })),
        history: eventsOf(d.id).map((e) => ({
          event: e.event,
          fleet_id: e.fleet_id,
          by_kind: e.by_kind,
          by: e.by_name,
          reason: e.reason,
          at: e.at.toISOString(),
        })),
      },
    })),
  };
}
