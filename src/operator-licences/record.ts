import type { Sql } from '../db/sql.js';
import { Refusal } from '../refusal.js';
import type { OperatorLicenceHolder } from '../model/operator-licences.js';
import { londonDate } from '../pricing/periods.js';
import type { OperatorLicenceRequest } from '../schemas/operator-licences.js';
import { holderName, operatorLicences, recordOperatorLicence, type OperatorLicenceRow } from './store.js';

// The receiving operators' licences, as staff see and keep them (docs/records.md, "Sub-contracting").

export interface FleetLicences {
  holderKind: OperatorLicenceHolder;
  holderId: string;
  holderName: string;
  licences: Array<OperatorLicenceRow & { inDate: boolean }>;
}

async function named(sql: Sql, kind: OperatorLicenceHolder, id: string): Promise<string> {
  const name = await holderName(sql, kind, id);
  if (name === null) throw Refusal.notFound('fleet_not_found', `No ${kind.replace('_', ' ')} ${id}.`);
  return name;
}

/** Every licence on file for the fleet, latest expiry first, each saying whether it is valid today. */
export async function fleetLicences(
  sql: Sql,
  holder: { kind: OperatorLicenceHolder; id: string },
  now: Date = new Date(),
): Promise<FleetLicences> {
  const name = await named(sql, holder.kind, holder.id);
  const today = londonDate(now);
  return {
    holderKind: holder.kind,
    holderId: holder.id,
    holderName: name,
    licences: (await operatorLicences(sql, holder.kind, holder.id)).map((l) => ({
      ...l,
      inDate: l.expires_on >= today,
    })),
  };
}

/** Puts a licence on file for the fleet (or renews one), in the name of whoever did it. */
export async function putLicenceOnFile(
  sql: Sql,
  holder: { kind: OperatorLicenceHolder; id: string },
  licence: OperatorLicenceRequest,
  recordedBy: string,
): Promise<FleetLicences> {
  await named(sql, holder.kind, holder.id);
  await recordOperatorLicence(sql, {
    holder_kind: holder.kind,
    holder_id: holder.id,
    ...licence,
    recorded_by: recordedBy,
  });
  return fleetLicences(sql, holder);
}
