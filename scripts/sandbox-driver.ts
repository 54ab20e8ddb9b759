// Marks a driver as a sandbox (test) driver, or back to a live one (docs/partners.md, "Sandbox keys").
// A sandbox driver is offered sandbox bookings only, and only sandbox drivers are offered them.
//   npm run driver:sandbox -- --id <driver id> [--live]
// The database is the one of the stack `npm start` runs with the same DATA_DIR, unless DATABASE_URL names another.
import { scriptArgs } from './script-args.js';
import { migrate } from '../src/db/migrate.js';
import { formatRegistration } from '../src/notify/car.js';
import { stackDatabaseOrExit } from '../dev/stack-settings.js';

const values = scriptArgs(
  { id: { type: 'string' }, live: { type: 'boolean', default: false } },
  'usage: npm run driver:sandbox -- --id <driver id> [--live]',
);
if (!values.id) {
  console.error('usage: npm run driver:sandbox -- --id <driver id> [--live]');
  console.error(
    'The database is the one of the stack `npm start` runs with the same DATA_DIR (docs/configuration.md), unless DATABASE_URL names another.',
  );
  process.exit(2);
}
const { sql } = await stackDatabaseOrExit('driver:sandbox', 2);
try {
  await migrate(sql);
  const sandbox = !values.live;
  const rows = await sql<
    { id: string; name: string; vehicle_registration: string | null; vehicle_colour: string | null }[]
  >`
    update drivers set sandbox = ${sandbox} where id = ${values.id} returning id, name, vehicle_registration, vehicle_colour`;
  if (rows.length === 0) throw new Error(`no driver ${values.id}`);
  const d = rows[0]!;
  // A job card open elsewhere stays until it is answered or runs out; new offers follow the flag at once.
  console.log(
    `Driver ${d.id} "${d.name}" is now a ${sandbox ? 'sandbox (test) driver: offered sandbox bookings only' : 'live driver'}.`,
  );
  // What a passenger's tracking page will name the car by (src/notify/car.ts).
  const registration = formatRegistration(d.vehicle_registration);
  console.log(
    registration
      ? `Passengers look for registration ${registration}${d.vehicle_colour ? `, colour ${d.vehicle_colour}` : ' (no colour on file)'}.`
      : 'No registration on file: passengers are shown the council licence number instead.',
  );
} finally {
  await sql.end({ timeout: 5 });
}
