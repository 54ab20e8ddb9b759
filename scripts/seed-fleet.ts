// Seeds (or refreshes) the demo fleet so a booking has drivers to cascade through.
//   npm run fleet:seed [-- --keep-fresh]
// The database is the one of the stack `npm start` runs with the same DATA_DIR, unless DATABASE_URL names another. Safe to run again at any time:
// it upserts by id and puts the demo drivers back online with fresh positions. Positions go stale
// for dispatch after DEFAULT_CASCADE_POLICY.freshLocationMs (10 minutes), as a real driver app
// would keep reporting; --keep-fresh stands in for that app, re-reporting until Ctrl-C.
import { scriptArgs } from './script-args.js';
import { DEFAULT_CASCADE_POLICY } from '../src/dispatch/policy.js';
import { TIERS } from '../src/model/bookings.js';
import { DEMO_CITIES, DEMO_DRIVERS, DEMO_FLEETS } from '../dev/demo-fleet.js';
import { seedFleet } from '../dev/seed-fleet.js';
import { migrate } from '../src/db/migrate.js';
import { stackDatabaseOrExit } from '../dev/stack-settings.js';

const values = scriptArgs(
  { 'keep-fresh': { type: 'boolean', default: false } },
  'usage: npm run fleet:seed [-- --keep-fresh]',
);
// Two connections: migrate holds one for its advisory lock while applying on the other.
const { sql } = await stackDatabaseOrExit('fleet:seed', 2);
const close = () => sql.end({ timeout: 5 });
try {
  await migrate(sql);
  const { drivers, fleets } = await seedFleet(sql);
  printSummary(drivers, fleets);
} catch (err) {
  await close();
  throw err;
}

if (values['keep-fresh']) {
  // Half the freshness window, so a position never ages past it between two reports.
  const everyMs = DEFAULT_CASCADE_POLICY.freshLocationMs / 2;
  console.log(`Re-reporting positions every ${everyMs / 60_000} minutes; Ctrl-C to stop.`);
  const timer = setInterval(() => {
    seedFleet(sql).then(
      () => console.log(`${new Date().toISOString()} positions refreshed`),
      (err: unknown) => console.error('refresh failed:', err),
    );
  }, everyMs);
  process.once('SIGINT', () => {
    clearInterval(timer);
    void close();
  });
} else {
  await close();
}

function printSummary(drivers: number, fleets: number): void {
  console.log(`Seeded ${drivers} demo drivers and ${fleets} partner fleets (online, located now).`);
  for (const tier of TIERS) {
    const ofTier = DEMO_DRIVERS.filter((d) => d.tier === tier);
    console.log(
      `  ${tier.padEnd(8)} ${String(ofTier.length).padStart(2)}  asked within ${DEFAULT_CASCADE_POLICY.maxDistanceMeters[tier] / 1000} km of the pickup`,
    );
  }
  for (const city of Object.values(DEMO_CITIES)) {
    const locals = DEMO_DRIVERS.filter((d) => d.homeArea === city.areaId);
    console.log(`  ${city.name}: ${locals.map((d) => `${d.id} ${d.vehicleType}`).join(', ')}`);
  }
  const skipped = DEMO_DRIVERS.filter((d) => !d.approved).map((d) => `${d.id} (driver not approved)`);
  for (const f of DEMO_FLEETS.filter((fleet) => !fleet.approved)) {
    skipped.push(
      ...DEMO_DRIVERS.filter((d) => d.partnerFleetId === f.id).map((d) => `${d.id} (fleet ${f.id} not approved)`),
    );
  }
  console.log(`  Always skipped, to show the reasons: ${skipped.join(', ')}`);
  if (!values['keep-fresh']) {
    console.log(
      `Positions count as fresh for ${DEFAULT_CASCADE_POLICY.freshLocationMs / 60_000} minutes: run again (or with --keep-fresh) before booking later.`,
    );
  }
}
