// A fleet's operator licence on file, as staff put one there (src/operator-licences): without one
// a partner fleet's drivers are offered none of our bookings and an exchange fleet is handed none.
import type { Sql } from '../../src/db/sql.js';
import type { OperatorLicenceHolder, OperatorLicenceKind } from '../../src/model/operator-licences.js';
import { recordOperatorLicence } from '../../src/operator-licences/store.js';

/** A year from today (UTC), the default expiry. */
const yearOn = () => new Date(Date.now() + 365 * 24 * 3600_000).toISOString().slice(0, 10);

export async function licenseFleet(
  sql: Sql,
  holder: OperatorLicenceHolder,
  id: string,
  opts: { expiresOn?: string; kind?: OperatorLicenceKind; authority?: string; number?: string } = {},
): Promise<void> {
  await recordOperatorLicence(sql, {
    holder_kind: holder,
    holder_id: id,
    authority: opts.authority ?? 'Test Borough Council',
    number: opts.number ?? `PHO-${id}`,
    kind: opts.kind ?? 'private_hire',
    expires_on: opts.expiresOn ?? yearOn(),
    recorded_by: 'test',
  });
}
