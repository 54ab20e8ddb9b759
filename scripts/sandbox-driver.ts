// Marks a driver as a sandbox (test) driver, or back to a live one (docs/partners.md, "Sandbox keys").
// A sandbox driver is offered sandbox bookings only, and only sandbox drivers are offered them.
//   npm run driver:sandbox -- --id <driver id> [--live]
// DATABASE_URL defaults to the embedded Postgres that `npm start` runs.
import { parseArgs } from 'node:util';
import { migrate } from '../src/db/migrate.js';
import { createSql } from '../src/db/sql.js';

const { values } = parseArgs({ options: { id: { type: 'string' }, live: { type: 'boolean', default: false } } });
if (!values.id) {
  console.error('usage: npm run driver:sandbox -- --id <driver id> [--live]');
  console.error('DATABASE_URL defaults to the embedded Postgres that `npm start` runs.');
  process.exit(2);
}
const sql = createSql(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:54329/taxi', 2);
try {
  await migrate(sql);
  const sandbox = !values.live;
  const rows = await sql<{ id: string; name: string }[]>`update drivers set sandbox = ${sandbox} where id = ${values.id} returning id, name`;
  if (rows.length === 0) throw new Error(`no driver ${values.id}`);
  // A job card open elsewhere stays until it is answered or runs out; new offers follow the flag at once.
  console.log(`Driver ${rows[0]!.id} "${rows[0]!.name}" is now a ${sandbox ? 'sandbox (test) driver: offered sandbox bookings only' : 'live driver'}.`);
} finally {
  await sql.end({ timeout: 5 });
}
