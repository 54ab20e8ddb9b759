// Plays the demo drivers' side so a newcomer can watch a cascade run in the Temporal Web UI:
// each open job card to a demo driver is accepted, declined or ignored (left to time out), and
// accepted trips are driven through en_route, arrived, on_board and completed, then settled in cash.
//   npm run fleet:simulate [-- --accept 0.4 --decline 0.3 --api http://localhost:3000]
// The database and the API (--api's default) are those of the stack `npm start` runs with the same
// DATA_DIR (docs/configuration.md), unless DATABASE_URL or PORT name others.
// What is left over after accept and decline is ignored. Uses the same JOB_LINK_SECRET as the
// API (the development default unless set), exactly as a driver's phone would use the link.
import { scriptArgs } from './script-args.js';
import { loadConfig } from '../src/config.js';
import { scriptStack, stackDatabaseOrExit } from '../dev/stack-settings.js';
import { seedFleet } from '../dev/seed-fleet.js';
import { jobLinkToken } from '../src/dispatch/job-link.js';

const values = scriptArgs(
  {
    accept: { type: 'string', default: '0.4' },
    decline: { type: 'string', default: '0.3' },
    api: { type: 'string' },
    'trip-step-seconds': { type: 'string', default: '10' },
  },
  'usage: npm run fleet:simulate [-- --accept 0.4 --decline 0.3 --api <the API> --trip-step-seconds 10]',
);
const pAccept = Number(values.accept);
const pDecline = Number(values.decline);
const stepMs = Number(values['trip-step-seconds']) * 1000;
if (!(pAccept >= 0 && pDecline >= 0 && pAccept + pDecline <= 1)) {
  console.error('--accept and --decline are probabilities that add up to at most 1');
  process.exit(2);
}
const api = (values.api ?? scriptStack().apiUrl).replace(/\/$/, '');
const { sql, stack } = await stackDatabaseOrExit('fleet:simulate', 2);
const config = loadConfig({ ...process.env, DATABASE_URL: stack.databaseUrl });
const decided = new Set<string>();
const STEPS = ['en_route', 'arrived', 'on_board', 'completed'] as const;

async function post(path: string, body: unknown): Promise<number> {
  const res = await fetch(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.status;
}

async function answerOffers(): Promise<void> {
  const offers = await sql<{ id: string; driver_id: string }[]>`
    select id, driver_id from offers where status = 'offered' and expires_at > now() and driver_id like 'drv-%'`;
  for (const o of offers) {
    if (decided.has(o.id)) continue;
    decided.add(o.id);
    const roll = Math.random();
    const decision = roll < pAccept ? 'accept' : roll < pAccept + pDecline ? 'decline' : null;
    if (!decision) {
      console.log(`${o.driver_id} ignores ${o.id} (it will time out)`);
      continue;
    }
    const status = await post(`/api/driver/offers/${encodeURIComponent(o.id)}/respond`, {
      decision,
      token: jobLinkToken(config.JOB_LINK_SECRET, o.id),
    });
    console.log(`${o.driver_id} ${decision}s ${o.id} -> ${status}`);
    if (decision === 'accept' && status === 200) void driveTrip(o.id, o.driver_id);
  }
}

async function driveTrip(offerId: string, driverId: string): Promise<void> {
  for (const event of STEPS) {
    await new Promise((r) => setTimeout(r, stepMs));
    const status = await post(`/api/driver/offers/${encodeURIComponent(offerId)}/trip`, {
      event,
      token: jobLinkToken(config.JOB_LINK_SECRET, offerId),
    });
    console.log(`${driverId} ${event} on ${offerId.split(':')[0]} -> ${status}`);
    if (status !== 202) return;
  }
  // The passenger paid the fare in cash; the driver says so, which settles the trip.
  const status = await post(`/api/driver/offers/${encodeURIComponent(offerId)}/payment`, {
    method: 'cash',
    token: jobLinkToken(config.JOB_LINK_SECRET, offerId),
  });
  console.log(`${driverId} confirms cash on ${offerId.split(':')[0]} -> ${status}`);
}

// Demo drivers report their position the way the driver app would, so none goes stale.
await seedFleet(sql);
const refresh = setInterval(() => void seedFleet(sql, { refreshLocations: true }).catch(() => undefined), 4 * 60_000);
const poll = setInterval(() => void answerOffers().catch((err: unknown) => console.error('poll failed:', err)), 1000);
console.log(
  `Simulating demo drivers against ${api}: accept ${pAccept}, decline ${pDecline}, ignore ${(1 - pAccept - pDecline).toFixed(2)}. Ctrl-C to stop.`,
);
process.once('SIGINT', () => {
  clearInterval(refresh);
  clearInterval(poll);
  void sql.end({ timeout: 5 });
});
