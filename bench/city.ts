// A simulated city on the real stack: a few thousand drivers round Manchester Piccadilly answering
// job cards through their signed links the way people do, and a day's bookings compressed into
// minutes (immediate, pre-booked, partner jobs, some cancelled by the passenger, some amended).
//   npx tsx bench/city.ts
//   npx tsx bench/city.ts --compare-ranking   the same city twice on one stack: drivers ranked by distance
//                              alone (DISPATCH_ANSWER_HANDICAP_METERS=0), then by how they answer (issue 38)
//   npx tsx bench/city.ts --compare   the same city twice on one stack: first the policy before issue 25
//                              (one driver at a time, no unseen cut, a 60 s window), then the configured one,
//                              with one seed (the same arrivals, each driver answering their nth card alike),
//                              and both tables side by side with new / old
// It prints, per kind of booking, time to the first job card, time to an accepted driver p50/p90/p99,
// the share never assigned, SMS job cards per booking and every SMS sent per booking. bench/capacity.ts
// calls runCity (exported) with short runs to find the highest rate the city sustains.
// Knobs (defaults finish in about 5 minutes on the 2-core development machine):
//   CITY_DRIVERS=3000          drivers, all local to the pickups' tariff area, 0.3-6 km from Piccadilly
//   CITY_SECONDS=120           how long bookings arrive
//   CITY_RATE=3                bookings offered per second (open loop: arrivals do not wait for replies)
//   CITY_MAX_INFLIGHT=48       booking requests in flight at most; an arrival beyond it is shed (counted)
//   CITY_DRAIN_SECONDS=300     after arrivals stop, the longest wait for dispatch and trips to finish
//   CITY_PREBOOKED=0.25        share of bookings pre-booked 75-150 s ahead (POST bookings/instant with depart_at)
//   CITY_PARTNER=0.15          share sent as partner jobs (POST /api/public/v1/jobs), pre-booked as above
//   CITY_CANCEL=0.08           share cancelled 5-60 s after booking (the passenger's manage_token; partner jobs by the partner)
//   CITY_AMEND=0.5             share of partner jobs amended 5-40 s after (pickup one minute later, two passengers)
//   CITY_ACCEPT=0.55 CITY_DECLINE=0.2 CITY_DROP=0.05   the rest ignore the card (it times out)
//   CITY_MIXED=0               a mixed fleet: half the drivers (chosen by the seed) accept CITY_ACCEPT x (1 + m),
//                              the other half x (1 - m), so the fleet's mean is CITY_ACCEPT (0: all alike)
//   CITY_HISTORY_CARDS         a week of job cards on record per driver before the run, answered as that
//                              driver answers (default 10 with CITY_MIXED, else 0): what ranking reads
//   CITY_ANSWER_HANDICAP_METERS   the processes' DISPATCH_ANSWER_HANDICAP_METERS (unset: the service's 2000)
//   CITY_ANSWER_MIN_S=2 CITY_ANSWER_MAX_S=20            how long a driver takes to answer
//   CITY_STEP_MIN_S=2 CITY_STEP_MAX_S=6                 each trip step (en_route, arrived, on_board, completed)
//   CITY_ONE_TAP=0.5           share of trips a driver ends by confirming the payment with the passenger on
//                              board (completed and paid in one tap); the rest tap "completed" first. Code
//                              that refuses the one tap (409 trip_not_completed) is answered with both taps
//   CITY_OFFER_TIMEOUT_SECONDS=25 CITY_DISPATCH_LEAD_SECONDS=60 CITY_RETRY_BASE_SECONDS=15   the processes' env
//   CITY_OFFER_GROUP_SIZE=3 CITY_OFFER_UNSEEN_SECONDS=15   the offer policy (OFFER_GROUP_SIZE, OFFER_UNSEEN_SECONDS;
//                              1 and 0: one driver at a time for the full window, as before issue 25)
//   CITY_OPEN_MAX_S=5          a driver who will answer opens the card (its page) 1-5 s after it arrives
//   CITY_WORKERS=1             worker processes; BENCH_TOPOLOGY=cluster runs on Temporal Server on Postgres
//   CITY_SEED                  seeds the arrival schedule and the drivers' behaviour (unset: a fresh one, printed)
//   CITY_NO_SHOW_GRACE_SECONDS, CITY_LATE_ACCEPT_SECONDS   the processes' NO_SHOW_GRACE_SECONDS and
//                              NO_SHOW_LATE_ACCEPT_SECONDS (unset: the service's 600 and 600); a short
//                              grace makes an overloaded run's late acceptances happen in minutes
//
// The API and the worker are separate processes (src/server.ts, src/worker.ts), started as
// `npm start` starts them, on a Postgres and a Temporal server of the run's own (bench/support.ts).
// Every figure is read back from Postgres timestamps: bookings.created_at, the first job card in the
// outbox, the booking_status_changes trigger's history (clock_timestamp() of each change), offers.
//
// Invariants (must be 0; the script exits 1 otherwise):
// - a driver holding two jobs at once: two bookings whose held periods (assigned until released,
//   completed or cancelled, from booking_status_changes) overlap while their trip windows (pickup to
//   pickup + duration, 20 minutes either side: the dispatcher's own rule) overlap;
// - a driver holding two open job cards at once: open from offered_at until closed (responded_at:
//   answered, timed out or withdrawn by its workflow), or, never closed, until its expiry plus
//   UNCLOSED_CARD_GRACE_MINUTES, as the claim counts it (src/dispatch/store.ts). Both stamps are
//   clock_timestamp() inside their transactions, offered_at once the driver's row lock is held, so
//   the table's order is the lock's order (before issue 25, offered_at was the claim transaction's
//   start, before its wait for the lock, and a card closed during the wait seemed to overlap);
// - a driver offered a card while holding an overlapping job;
// - a booking dispatched twice: two job cards open at once for one booking, or a second accepted
//   offer while the first driver still held it.
// A run that breaks one writes the offending rows, with every card and status change of the drivers
// and bookings involved, to CITY_EVIDENCE_DIR (default: the system's temporary directory) before its
// database goes; to keep the whole database, run against a Postgres of your own (DATABASE_URL).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '../src/auth/api-keys.js';
import { migrate } from '../src/db/migrate.js';
import { createSql } from '../src/db/sql.js';
import { jobLinkToken } from '../src/dispatch/job-link.js';
import { JOB_BUFFER_MINUTES } from '../src/dispatch/policy.js';
import { UNCLOSED_CARD_GRACE_MINUTES } from '../src/dispatch/store.js';
import { createPartner } from '../src/partners/store.js';
import { connectTemporal } from '../src/temporal/connection.js';
import { bookingWorkflowId } from '../workflows/bookings/definitions.js';
import { freePort } from '../dev/free-port.js';
import { cpuPerOperation, cpuSnapshot } from './cpu.js';
import { diffStats, scaleStats, storeStats, type StoreStats } from './stores.js';
import { eventKindName } from './history.js';
import { percentile, startBenchStack, startProcess, waitForHttp, type Stack } from './support.js';

const num = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number`);
  return v;
};

const ACTIVE = ['assigned', 'en_route', 'arrived', 'on_board'];
const BUFFER = `${JOB_BUFFER_MINUTES} minutes`; // the dispatch policy's buffer between two jobs of one driver
const PARTNER_FARE = 30;

const PICKUPS = [
  'Manchester Piccadilly',
  'Manchester Victoria',
  'Manchester Oxford Road',
  'Deansgate station',
  'Manchester Royal Infirmary',
  'Etihad Stadium',
  'Manchester Arndale',
];
const DROPOFFS = [
  'Manchester Airport',
  'Salford Quays',
  'Old Trafford',
  'Didsbury',
  'Chorlton',
  'Stockport station',
  'Trafford Centre',
  'Sale',
];

/** The city's knobs (see the header); cityConfigFromEnv reads them from CITY_* as the CLI does. */
export interface CityConfig {
  driverCount: number;
  seconds: number;
  rate: number;
  maxInflight: number;
  drainSeconds: number;
  sharePrebooked: number;
  sharePartner: number;
  shareCancel: number;
  shareAmend: number;
  pAccept: number;
  pDecline: number;
  pDrop: number;
  answerMin: number;
  answerMax: number;
  stepMin: number;
  stepMax: number;
  oneTap: number;
  offerTimeout: number;
  groupSize: number;
  unseenCut: number;
  openMax: number;
  noShowGrace?: number;
  lateAccept?: number;
  dispatchLead: number;
  retryBase: number;
  workerCount: number;
  /** A mixed fleet's spread of acceptance (0: every driver alike). */
  mixed: number;
  /** Job cards on record per driver before the run (a week of history for the ranking to read). */
  historyCards: number;
  /** DISPATCH_ANSWER_HANDICAP_METERS for the processes; absent: the service's default. */
  answerHandicap?: number;
}

export function cityConfigFromEnv(): CityConfig {
  const c: CityConfig = {
    driverCount: num('CITY_DRIVERS', 3000),
    seconds: num('CITY_SECONDS', 120),
    rate: num('CITY_RATE', 3),
    maxInflight: num('CITY_MAX_INFLIGHT', 48),
    drainSeconds: num('CITY_DRAIN_SECONDS', 300),
    sharePrebooked: num('CITY_PREBOOKED', 0.25),
    sharePartner: num('CITY_PARTNER', 0.15),
    shareCancel: num('CITY_CANCEL', 0.08),
    shareAmend: num('CITY_AMEND', 0.5),
    pAccept: num('CITY_ACCEPT', 0.55),
    pDecline: num('CITY_DECLINE', 0.2),
    pDrop: num('CITY_DROP', 0.05),
    answerMin: num('CITY_ANSWER_MIN_S', 2),
    answerMax: num('CITY_ANSWER_MAX_S', 20),
    stepMin: num('CITY_STEP_MIN_S', 2),
    stepMax: num('CITY_STEP_MAX_S', 6),
    oneTap: num('CITY_ONE_TAP', 0.5),
    offerTimeout: num('CITY_OFFER_TIMEOUT_SECONDS', 25),
    groupSize: Math.max(1, num('CITY_OFFER_GROUP_SIZE', 3)),
    unseenCut: num('CITY_OFFER_UNSEEN_SECONDS', 15),
    openMax: Math.max(1, num('CITY_OPEN_MAX_S', 5)),
    // Unset: the service's own defaults (600 and 600).
    ...(process.env.CITY_NO_SHOW_GRACE_SECONDS ? { noShowGrace: num('CITY_NO_SHOW_GRACE_SECONDS', 600) } : {}),
    ...(process.env.CITY_LATE_ACCEPT_SECONDS ? { lateAccept: num('CITY_LATE_ACCEPT_SECONDS', 600) } : {}),
    dispatchLead: num('CITY_DISPATCH_LEAD_SECONDS', 60),
    retryBase: num('CITY_RETRY_BASE_SECONDS', 15),
    workerCount: Math.max(1, num('CITY_WORKERS', 1)),
    mixed: Math.min(1, Math.max(0, num('CITY_MIXED', 0))),
    historyCards: 0,
    ...(process.env.CITY_ANSWER_HANDICAP_METERS ? { answerHandicap: num('CITY_ANSWER_HANDICAP_METERS', 2000) } : {}),
  };
  c.historyCards = Math.max(0, num('CITY_HISTORY_CARDS', c.mixed > 0 ? 10 : 0));
  if (c.pAccept + c.pDecline + c.pDrop > 1) throw new Error('CITY_ACCEPT + CITY_DECLINE + CITY_DROP must be at most 1');
  if (c.sharePrebooked + c.sharePartner > 1) throw new Error('CITY_PREBOOKED + CITY_PARTNER must be at most 1');
  return c;
}

/** The policy before issue 25: one driver at a time, the full window, no cut for an unopened card. */
export const OLD_OFFER_POLICY = { groupSize: 1, unseenCut: 0, offerTimeout: 60 } as const;

export interface KindFigures {
  made: number;
  cancelled: number;
  cardFromPostP50: number;
  cardFromPostP99: number;
  /** First job card, ms from created_at (immediate) or the start of dispatch (pre-booked, partner). */
  cardP50: number;
  cardP99: number;
  /** Time to an accepted driver, ms from the same start. */
  assignedP50: number;
  assignedP90: number;
  assignedP99: number;
  /** Bookings whose dispatch began and that were not cancelled; of them, those a driver accepted. */
  dispatchedNotCancelled: number;
  assigned: number;
  smsCardsPerBooking: number;
  smsPerBooking: number;
}

/**
 * What the run cost, per booking made, from the start of the arrivals to the end of the drain: the
 * whole lifecycle (dispatch, answers, the trip, settlement, cancellations and amendments), for the
 * capacity model in docs/capacity.md.
 */
export interface CityCost {
  bookings: number;
  /**
   * CPU ms per booking by process (bench/cpu.ts names; "bench client" is the simulation itself),
   * net of what each process used idle (sampled for IDLE_SAMPLE_MS before the arrivals) over the
   * run; cpuMsWithIdle is the gross figure.
   */
  cpuMs: Record<string, number>;
  cpuMsWithIdle: Record<string, number>;
  idleCpuMsPerSecond: Record<string, number>;
  /** Transactions committed and rows written (inserted, updated, deleted) per booking, by database, net of idle. */
  service: { commits: number; rowWrites: number };
  temporal: { commits: number; rowWrites: number };
  /** Write-ahead log per booking, the whole Postgres server (both databases on the cluster), net of idle. */
  walBytes: number;
  /** Temporal history events per booking workflow (a sample of the bookings made). */
  historyEventsMean: number;
  historyEventsP90: number;
  /** Mean events of each kind per sampled booking workflow, commonest first. */
  historyEventKinds: Record<string, number>;
}

export interface CityResult {
  ok: boolean;
  error?: string;
  offered: number;
  accepted: number;
  shed: number;
  phaseSeconds: number;
  drained: boolean;
  /** Requests the service failed (5xx, unexpected 4xx) and simulation errors. */
  failures: number;
  invariantsBroken: number;
  kinds: Record<'immediate' | 'prebooked' | 'partner' | 'all', KindFigures> | null;
  cost?: CityCost;
}

export interface CityRunOptions {
  /** A stack the caller started and stops (bench/capacity.ts, --compare): the run leaves it running. */
  stack?: Stack;
  /** Seeds the arrival schedule and the drivers' behaviour: one seed, one city. */
  seed?: string;
  label?: string;
}

/** A small seeded generator (mulberry32 over an FNV-1a hash of the parts). */
export function seededRandom(...parts: (string | number)[]): () => number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0001')) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The service's processes, as bench/cpu.ts names them: not the simulation, nor bench/capacity.ts's baseline worker. */
const isService = (process: string) => process !== 'bench client' && process !== 'baseline worker';
/** How long the run samples its processes idle, before the arrivals (for the cost per booking net of idle). */
const IDLE_SAMPLE_MS = 10_000;
const between = (rnd: () => number, lo: number, hi: number) => lo + rnd() * (hi - lo);
const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const pct = (xs: number[], p: number) =>
  xs.length
    ? percentile(
        [...xs].sort((a, b) => a - b),
        p,
      )
    : NaN;
const s1 = (x: number) => (Number.isFinite(x) ? (x / 1000).toFixed(1) : '-');

export async function runCity(cfg: CityConfig, opts: CityRunOptions = {}): Promise<CityResult> {
  const {
    driverCount,
    seconds,
    rate,
    maxInflight,
    drainSeconds,
    sharePrebooked,
    sharePartner,
    shareCancel,
    shareAmend,
    pAccept,
    pDecline,
    pDrop,
    answerMin,
    answerMax,
    stepMin,
    stepMax,
    oneTap,
    offerTimeout,
    groupSize,
    unseenCut,
    openMax,
    dispatchLead,
    retryBase,
    workerCount,
    mixed,
    historyCards,
  } = cfg;
  const seed = opts.seed ?? randomUUID().slice(0, 8);
  const runId = randomUUID().slice(0, 8);
  const driverPrefix = `city-${runId}-`;
  const JOB_LINK_SECRET = `bench-city-job-link-secret-${randomUUID()}`;
  const cardsOf = new Map<string, number>();
  const noShowGrace = cfg.noShowGrace ?? 600;
  const stack = opts.stack ?? (await startBenchStack({ postgres: await freePort(), temporal: await freePort() }));
  // A stack the caller owns outlives this run: leave nothing of this run's running on it.
  const external = Boolean(opts.stack || process.env.DATABASE_URL || process.env.TEMPORAL_ADDRESS);
  const sql = createSql(stack.databaseUrl, 6);
  await migrate(sql);
  const { key } = await createApiKey(sql, { name: `bench-city-${runId}`, rateLimitExempt: true });
  const partnerId = `city-${runId}`;
  await createPartner(sql, { id: partnerId, name: 'City Bench Partner', kind: 'partner', dailyJobLimit: 10_000_000 });
  const { key: partnerKey } = await createApiKey(sql, { name: partnerId, partnerId });
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const taskQueue = `bench-city-${runId}`;
  const env = {
    DATABASE_URL: stack.databaseUrl,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    LOG_LEVEL: 'warn',
    JOB_LINK_SECRET,
    PUBLIC_BASE_URL: apiUrl,
    OFFER_TIMEOUT_SECONDS: String(offerTimeout),
    OFFER_GROUP_SIZE: String(groupSize),
    OFFER_UNSEEN_SECONDS: String(unseenCut),
    DISPATCH_LEAD_SECONDS: String(dispatchLead),
    DISPATCH_RETRY_BASE_SECONDS: String(retryBase),
    DISPATCH_RETRY_MAX_SECONDS: String(Math.max(retryBase, 60)),
    ...(cfg.noShowGrace !== undefined ? { NO_SHOW_GRACE_SECONDS: String(cfg.noShowGrace) } : {}),
    ...(cfg.lateAccept !== undefined ? { NO_SHOW_LATE_ACCEPT_SECONDS: String(cfg.lateAccept) } : {}),
    ...(cfg.answerHandicap !== undefined ? { DISPATCH_ANSWER_HANDICAP_METERS: String(cfg.answerHandicap) } : {}),
    // Every simulated driver and passenger answers from 127.0.0.1: the per-IP limits are for strangers.
    DRIVER_RATE_LIMIT_PER_MINUTE: '10000000',
    LOOKUP_RATE_LIMIT_PER_MINUTE: '10000000',
    PARTNER_RATE_LIMIT_PER_MINUTE: '10000000',
  };
  const workers = Array.from({ length: workerCount }, () => startProcess('src/worker.ts', env));
  const api = startProcess('src/server.ts', { ...env, PORT: String(apiPort) });
  const { client, connection } = await connectTemporal({ address: stack.temporalAddress, namespace: 'default' });

  type Kind = 'immediate' | 'prebooked' | 'partner';
  interface Made {
    ref: string;
    /** Epoch ms just before the POST was sent. */
    sentAt?: number;
    kind: Kind;
    jobRef?: string;
    pickup: string;
    dropoff: string;
    pickupTime?: string;
  }
  const made: Made[] = [];
  const replyMs: Record<Kind, number[]> = { immediate: [], prebooked: [], partner: [] };
  const failures: Record<string, number> = {};
  const fail = (what: string, detail?: string) => {
    failures[what] = (failures[what] ?? 0) + 1;
    if (failures[what] === 1 && detail) console.error(`first ${what}: ${detail.slice(0, 300)}`);
  };
  const answers: Record<string, number> = {};
  const count = (what: string) => (answers[what] = (answers[what] ?? 0) + 1);
  const pending = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    // Requests cut off when the run shuts the service down are not failures of the service.
    const q = p
      .catch((err: unknown) => (simStopped ? undefined : fail('simulation error', String(err))))
      .finally(() => pending.delete(q));
    pending.add(q);
  };

  async function post(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    try {
      return { status: res.status, json: JSON.parse(text) as Record<string, unknown> };
    } catch {
      return { status: res.status, json: { raw: text } };
    }
  }

  let serial = 0;
  const phoneBase = Math.floor(Math.random() * 500_000);
  const nextPhone = () => `+447400${String((phoneBase + serial) % 1_000_000).padStart(6, '0')}`;

  /** The places, located and checked by the running API; drivers are local to the pickups' tariff area. */
  async function locate(): Promise<{
    area: string;
    centre: { lat: number; lon: number };
    pickups: string[];
    dropoffs: string[];
  }> {
    const quote = (pickup: string, dropoff: string) =>
      post('/api/public/v1/quote', { pickup, dropoff }, { 'x-api-key': key });
    const first = await quote(PICKUPS[0]!, DROPOFFS[0]!);
    if (first.status !== 200)
      throw new Error(`cannot quote ${PICKUPS[0]}: ${first.status} ${JSON.stringify(first.json)}`);
    const area = (first.json.tariff_source as { area_id: string }).area_id;
    const p = first.json.pickup as { latitude: number; longitude: number };
    const pickups: string[] = [];
    const dropoffs: string[] = [];
    for (const place of PICKUPS) {
      const q = await quote(place, DROPOFFS[0]!);
      if (q.status === 200 && (q.json.tariff_source as { area_id: string }).area_id === area) pickups.push(place);
      else
        console.warn(
          `pickup ${place} left out (${q.status} ${q.status === 200 ? (q.json.tariff_source as { area_id: string }).area_id : ''})`,
        );
    }
    for (const place of DROPOFFS) {
      const q = await quote(PICKUPS[0]!, place);
      if (q.status === 200) dropoffs.push(place);
      else console.warn(`drop-off ${place} left out (${q.status})`);
    }
    return { area, centre: { lat: p.latitude, lon: p.longitude }, pickups, dropoffs };
  }

  // ---- the drivers --------------------------------------------------------------------------------

  const seen = new Set<string>();
  let simStopped = false;

  /** This driver's share of cards accepted: the fleet's, or in a mixed fleet, their half's. */
  function acceptanceOf(driverId: string): number {
    if (mixed === 0) return pAccept;
    const reliable = seededRandom(seed, 'reliable', driverId.slice(driverPrefix.length))() < 0.5;
    return Math.min(1 - pDecline - pDrop, pAccept * (reliable ? 1 + mixed : 1 - mixed));
  }

  /** What this driver does with a card, from a roll in [0, 1). */
  function behaviourOf(driverId: string, roll: number): 'accept' | 'decline' | 'drop' | 'ignore' {
    const a = acceptanceOf(driverId);
    return roll < a ? 'accept' : roll < a + pDecline ? 'decline' : roll < a + pDecline + pDrop ? 'drop' : 'ignore';
  }

  /** One job card, answered as this driver does: accept, decline, accept and then drop, or ignore. */
  async function answer(offerId: string, driverId: string): Promise<void> {
    const token = jobLinkToken(JOB_LINK_SECRET, offerId);
    // The driver's nth card is answered alike in every run of one seed, whichever booking it is for.
    const nth = (cardsOf.get(driverId) ?? 0) + 1;
    cardsOf.set(driverId, nth);
    const rnd = seededRandom(seed, 'driver', driverId.slice(driverPrefix.length), nth);
    const behaviour = behaviourOf(driverId, rnd());
    count(`card: ${behaviour}`);
    if (behaviour === 'ignore') return;
    // A driver who answers opens the card first (the offer policy gives an opened card its full window).
    const answerAt = between(rnd, answerMin, answerMax);
    const openAt = Math.min(answerAt, between(rnd, 1, openMax));
    await sleep(openAt * 1000);
    const page = await fetch(`${apiUrl}/driver/jobs/${encodeURIComponent(offerId)}?t=${token}`).catch(() => null);
    count(`open card -> ${page?.status ?? 'error'}`);
    await page?.body?.cancel();
    await sleep((answerAt - openAt) * 1000);
    const decision = behaviour === 'decline' ? 'decline' : 'accept';
    const r = await post(`/api/driver/offers/${encodeURIComponent(offerId)}/respond`, { decision, token });
    count(`respond ${decision} -> ${r.status}`);
    if (r.status >= 500 || r.status === 400 || r.status === 401 || r.status === 403 || r.status === 429)
      fail(`respond ${r.status}`, JSON.stringify(r.json));
    if (decision !== 'accept' || r.status !== 200) return;
    if (behaviour === 'drop') {
      await sleep(between(rnd, stepMin, stepMax) * 1000);
      const d = await post(`/api/driver/offers/${encodeURIComponent(offerId)}/trip`, { event: 'drop', token });
      count(`drop -> ${d.status}`);
      return;
    }
    // Its own stream, so the one tap leaves every other draw of the seed as it was.
    const oneTapped = seededRandom(seed, 'one-tap', driverId.slice(driverPrefix.length), nth)() < oneTap;
    const steps = ['en_route', 'arrived', 'on_board', ...(oneTapped ? [] : ['completed'])] as const;
    for (const event of steps) {
      await sleep(between(rnd, stepMin, stepMax) * 1000);
      const s = await post(`/api/driver/offers/${encodeURIComponent(offerId)}/trip`, { event, token });
      // 202 answers the booking's status once the report is applied: a booking cancelled meanwhile
      // answers 'cancelled', and the trip is over.
      const now = s.json.status as string | undefined;
      count(`${event} -> ${s.status}${s.status === 202 && now !== event ? ` (${now})` : ''}`);
      if (s.status === 202 && now !== event) return;
      if (s.status !== 202) {
        // 409 is a booking cancelled or amended away meanwhile; anything else is a failure.
        if (s.status !== 409) fail(`trip ${event} ${s.status}`, JSON.stringify(s.json));
        return;
      }
    }
    if (oneTapped) await sleep(between(rnd, stepMin, stepMax) * 1000);
    let pay = await post(`/api/driver/offers/${encodeURIComponent(offerId)}/payment`, { method: 'cash', token });
    if (oneTapped && pay.status === 409 && pay.json.code === 'trip_not_completed') {
      // Code from before the one tap (a --compare base): the trip's last step first, then the payment.
      const done = await post(`/api/driver/offers/${encodeURIComponent(offerId)}/trip`, { event: 'completed', token });
      count(`completed -> ${done.status}`);
      pay = await post(`/api/driver/offers/${encodeURIComponent(offerId)}/payment`, { method: 'cash', token });
    }
    count(`payment${oneTapped ? ' (one tap)' : ''} -> ${pay.status}`);
    if (pay.status !== 200) fail(`payment ${pay.status}`, JSON.stringify(pay.json));
  }

  async function driverLoop(): Promise<void> {
    while (!simStopped) {
      const offers = await sql<{ id: string; driver_id: string }[]>`
        select id, driver_id from offers where status = 'offered' and expires_at > now() and driver_id like ${`${driverPrefix}%`}`;
      for (const o of offers) {
        if (seen.has(o.id)) continue;
        seen.add(o.id);
        track(answer(o.id, o.driver_id));
      }
      await sleep(250);
    }
  }

  // ---- the passengers and the partner ------------------------------------------------------------

  let inflight = 0;
  let shed = 0;
  let offered = 0;

  async function book(kind: Kind, places: { pickups: string[]; dropoffs: string[] }, rnd: () => number): Promise<void> {
    const n = serial++;
    const pickup = pick(rnd, places.pickups);
    const dropoff = pick(rnd, places.dropoffs);
    const pickupTime =
      kind === 'immediate' ? undefined : new Date(Date.now() + between(rnd, 75, 150) * 1000).toISOString();
    const t = performance.now();
    const sentAt = Date.now();
    if (kind === 'partner') {
      const jobRef = `CITY-${runId}-${n}`;
      // The partner's agreed fare: an amendment may change the time and passengers, never the fare.
      const job = {
        jobRef,
        pickup,
        dropoff,
        pickupTime,
        fare: PARTNER_FARE,
        passengerName: 'City Passenger',
        passengerPhone: nextPhone(),
      };
      const r = await post('/api/public/v1/jobs', job, { authorization: `Bearer ${partnerKey}` });
      const result = (r.json.results as { outcome: string; bookingReference: string | null }[] | undefined)?.[0];
      if (r.status !== 200 || !result?.bookingReference) return fail(`partner new ${r.status}`, JSON.stringify(r.json));
      replyMs.partner.push(performance.now() - t);
      const m: Made = { ref: result.bookingReference, kind, jobRef, pickup, dropoff, pickupTime: pickupTime! };
      made.push(m);
      if (rnd() < shareCancel) track(partnerCancel(m, rnd));
      else if (rnd() < shareAmend) track(partnerAmend(m, rnd));
      return;
    }
    const r = await post(
      '/api/public/bookings/instant',
      {
        pickup_address: pickup,
        dropoff_address: dropoff,
        ...(pickupTime ? { depart_at: pickupTime } : {}),
        passenger_name: 'City Passenger',
        passenger_phone_whatsapp: nextPhone(),
        passenger_count: 1,
      },
      { 'x-api-key': key },
    );
    if (r.status !== 200) return fail(`${kind} booking ${r.status}`, JSON.stringify(r.json));
    replyMs[kind].push(performance.now() - t);
    const ref = r.json.booking_reference as string;
    made.push({ ref, kind, pickup, dropoff, sentAt });
    if (rnd() < shareCancel) track(passengerCancel(ref, r.json.manage_token as string, rnd));
  }

  async function passengerCancel(ref: string, token: string, rnd: () => number): Promise<void> {
    await sleep(between(rnd, 5, 60) * 1000);
    const r = await post(`/api/public/v1/booking/${ref}`, { action: 'cancel', token, reason: 'plans changed' });
    count(`passenger cancel -> ${r.status}`);
    if (r.status !== 200 && r.status !== 409) fail(`cancel ${r.status}`, JSON.stringify(r.json));
  }

  async function partnerCancel(m: Made, rnd: () => number): Promise<void> {
    await sleep(between(rnd, 5, 60) * 1000);
    const r = await post(
      '/api/public/v1/jobs',
      { jobRef: m.jobRef, action: 'cancel', pickup: m.pickup, dropoff: m.dropoff, pickupTime: m.pickupTime },
      { authorization: `Bearer ${partnerKey}` },
    );
    const outcome = (r.json.results as { outcome: string }[] | undefined)?.[0]?.outcome ?? String(r.status);
    count(`partner cancel -> ${outcome}`);
  }

  async function partnerAmend(m: Made, rnd: () => number): Promise<void> {
    await sleep(between(rnd, 5, 40) * 1000);
    const pickupTime = new Date(Date.parse(m.pickupTime!) + 60_000).toISOString();
    const r = await post(
      '/api/public/v1/jobs',
      {
        jobRef: m.jobRef,
        action: 'amend',
        pickup: m.pickup,
        dropoff: m.dropoff,
        pickupTime,
        fare: PARTNER_FARE,
        passengers: 2,
        notes: 'One more passenger',
      },
      { authorization: `Bearer ${partnerKey}` },
    );
    const result = (r.json.results as { outcome: string; code?: string }[] | undefined)?.[0];
    count(`partner amend -> ${result ? `${result.outcome}${result.code ? ` (${result.code})` : ''}` : r.status}`);
    if (r.status >= 500) fail(`amend ${r.status}`, JSON.stringify(r.json));
  }

  function arrival(places: { pickups: string[]; dropoffs: string[] }): void {
    // The nth arrival is the same booking (kind, places, time, cancel or amend) in every run of one seed.
    const rnd = seededRandom(seed, 'arrival', offered);
    offered++;
    if (inflight >= maxInflight) {
      shed++;
      return;
    }
    const roll = rnd();
    const kind: Kind =
      roll < sharePartner ? 'partner' : roll < sharePartner + sharePrebooked ? 'prebooked' : 'immediate';
    inflight++;
    track(book(kind, places, rnd).finally(() => inflight--));
  }

  // ---- the figures --------------------------------------------------------------------------------

  async function invariants(refs: string[]) {
    type Pair = { a: string; b: string; driver_id?: string; booking_ref?: string };
    const [r] = await sql<
      {
        held_two: number;
        held_two_any_window: number;
        two_cards: number;
        card_while_holding: number;
        two_cards_one_booking: number;
        accepted_while_held: number;
        accepted_after_expiry: number;
        no_show_releases: number;
        accepted_after_grace: number;
        pairs: Pair[];
      }[]
    >`
      with run as (select ref from bookings where ref in ${sql(refs)}),
      ch as (
        select c.booking_ref, c.status, c.driver_id, c.changed_at,
               lead(c.changed_at) over (partition by c.booking_ref order by c.id) as next_at
          from booking_status_changes c join run on run.ref = c.booking_ref),
      holds as (
        select h.booking_ref, h.driver_id, h.changed_at as from_at, coalesce(h.next_at, 'infinity'::timestamptz) as to_at,
               b.pickup_at, b.pickup_at + make_interval(secs => b.duration_s) as end_at
          from ch h join bookings b on b.ref = h.booking_ref
         where h.status in ${sql(ACTIVE)} and h.driver_id is not null),
      o as (
        select x.id, x.booking_ref, x.driver_id, x.offered_at,
               coalesce(x.responded_at, x.expires_at + make_interval(mins => ${UNCLOSED_CARD_GRACE_MINUTES})) as until,
               b.pickup_at, b.pickup_at + make_interval(secs => b.duration_s) as end_at
          from offers x join run on run.ref = x.booking_ref join bookings b on b.ref = x.booking_ref),
      acc as (
        select x.booking_ref, x.driver_id, x.responded_at, row_number() over (partition by x.booking_ref order by x.responded_at) as n
          from offers x join run on run.ref = x.booking_ref where x.status = 'accepted')
      select
        (select count(*)::int from holds a join holds b on a.driver_id = b.driver_id and a.booking_ref < b.booking_ref
           and a.from_at < b.to_at and b.from_at < a.to_at
           and a.pickup_at - ${BUFFER}::interval < b.end_at and b.pickup_at - ${BUFFER}::interval < a.end_at) as held_two,
        (select count(*)::int from holds a join holds b on a.driver_id = b.driver_id and a.booking_ref < b.booking_ref
           and a.from_at < b.to_at and b.from_at < a.to_at) as held_two_any_window,
        (select count(*)::int from o a join o b on a.driver_id = b.driver_id and a.id < b.id
           and a.offered_at < b.until and b.offered_at < a.until) as two_cards,
        (select count(*)::int from o join holds h on h.driver_id = o.driver_id and h.booking_ref <> o.booking_ref
           and o.offered_at < h.to_at and h.from_at < o.until
           and o.pickup_at - ${BUFFER}::interval < h.end_at and h.pickup_at - ${BUFFER}::interval < o.end_at) as card_while_holding,
        -- (A group offer holds several cards of one booking open by design: its guarantee is one
        -- acceptance, accepted_while_held below.)
        (select count(*)::int from o a join o b on a.booking_ref = b.booking_ref and a.id < b.id and ${groupSize <= 1}
           and a.offered_at < b.until and b.offered_at < a.until) as two_cards_one_booking,
        (select count(*)::int from acc a join acc b on a.booking_ref = b.booking_ref and b.n = a.n + 1
           where not exists (select 1 from booking_status_changes c
                              where c.booking_ref = a.booking_ref and c.changed_at > a.responded_at and c.changed_at <= b.responded_at
                                and (c.status not in ${sql(ACTIVE)} or c.driver_id is distinct from a.driver_id))) as accepted_while_held,
        -- For information: cards whose acceptance was recorded after their expiry (the workflow takes an
        -- answer until its own timer, which starts once the card is sent).
        (select count(*)::int from o join offers x on x.id = o.id where x.status = 'accepted' and x.responded_at > x.expires_at) as accepted_after_expiry,
        -- For information: drivers let go as no-shows (their release text), and those who had accepted
        -- after pickup plus the grace (issue 25: given the late-accept window, not a second).
        (select count(*)::int from outbox m join run on run.ref = m.booking_ref where m.idempotency_key like 'released:%:no_show') as no_show_releases,
        (select count(*)::int from o join offers x on x.id = o.id join bookings b on b.ref = x.booking_ref
          where x.status = 'accepted' and x.responded_at > b.pickup_at + make_interval(secs => ${noShowGrace})) as accepted_after_grace,
        -- The offending pairs, for the evidence a failing run keeps.
        (select coalesce(jsonb_agg(p), '[]'::jsonb) from (
           select 'two_cards' as invariant, a.id as a, b.id as b, a.driver_id from o a join o b on a.driver_id = b.driver_id and a.id < b.id
              and a.offered_at < b.until and b.offered_at < a.until
           union all
           select 'card_while_holding', o.id, h.booking_ref, o.driver_id from o join holds h on h.driver_id = o.driver_id and h.booking_ref <> o.booking_ref
              and o.offered_at < h.to_at and h.from_at < o.until
              and o.pickup_at - ${BUFFER}::interval < h.end_at and h.pickup_at - ${BUFFER}::interval < o.end_at
           union all
           select 'two_cards_one_booking', a.id, b.id, null from o a join o b on a.booking_ref = b.booking_ref and a.id < b.id and ${groupSize <= 1}
              and a.offered_at < b.until and b.offered_at < a.until
           union all
           select 'held_two', a.booking_ref, b.booking_ref, a.driver_id from holds a join holds b on a.driver_id = b.driver_id and a.booking_ref < b.booking_ref
              and a.from_at < b.to_at and b.from_at < a.to_at
              and a.pickup_at - ${BUFFER}::interval < b.end_at and b.pickup_at - ${BUFFER}::interval < a.end_at
           limit 200) p) as pairs`;
    return r!;
  }

  /**
   * A failing run's evidence, written before its database goes: the offending pairs and every card
   * and status change of the drivers and bookings they name, with both stamps to the microsecond.
   */
  async function keepEvidence(pairs: { a: string; b: string; driver_id?: string | null }[]): Promise<string> {
    const drivers = [...new Set(pairs.flatMap((p) => (p.driver_id ? [p.driver_id] : [])))];
    const refs = [...new Set(pairs.flatMap((p) => [p.a, p.b]).map((x) => x.split(':')[0]!))];
    const offers = await sql`
      select id, booking_ref, driver_id, round, status, to_char(offered_at, 'HH24:MI:SS.US') as offered_at,
             to_char(expires_at, 'HH24:MI:SS.US') as expires_at, to_char(responded_at, 'HH24:MI:SS.US') as responded_at
        from offers where driver_id in ${sql(drivers.length ? drivers : [''])} or booking_ref in ${sql(refs.length ? refs : [''])}
       order by driver_id, offered_at`;
    const changes = await sql`
      select booking_ref, status, driver_id, to_char(changed_at, 'HH24:MI:SS.US') as changed_at from booking_status_changes
       where booking_ref in ${sql(refs.length ? refs : [''])} or driver_id in ${sql(drivers.length ? drivers : [''])} order by id`;
    const dir = process.env.CITY_EVIDENCE_DIR || os.tmpdir();
    const file = path.join(dir, `city-${runId}-invariants.json`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ runId, pairs, offers, changes }, null, 1));
    return file;
  }

  async function settled(refs: string[]): Promise<boolean> {
    if (refs.length === 0) return true;
    const [r] = await sql<{ open: number }[]>`
      select count(*)::int as open from bookings
       where ref in ${sql(refs)}
         and (status in ('dispatching', 'offered', 'assigned', 'en_route', 'arrived', 'on_board')
              or (status = 'scheduled' and pickup_at - make_interval(secs => ${dispatchLead}) < now()))`;
    return r!.open === 0;
  }

  /** Bookings still open when the drain ends: what each workflow is doing, from its history. */
  async function explainOpen(list: Made[]): Promise<void> {
    const open = await sql<{ ref: string; status: string; updated_at: Date; pickup_at: Date }[]>`
      select ref, status, updated_at, pickup_at from bookings
       where ref in ${sql(list.map((m) => m.ref))}
         and (status in ('dispatching', 'offered', 'assigned', 'en_route', 'arrived', 'on_board')
              or (status = 'scheduled' and pickup_at - make_interval(secs => ${dispatchLead}) < now()))`;
    const kinds = new Map(list.map((m) => [m.ref, m.kind]));
    for (const b of open.slice(0, 10)) {
      const handle = client.workflow.getHandle(bookingWorkflowId(b.ref));
      const d = await handle
        .describe()
        .catch((err: unknown) => ({ status: { name: String(err) }, historyLength: 0, raw: null }));
      const history = await handle.fetchHistory().catch(() => null);
      const last = (history?.events ?? []).slice(-8).map((e) => {
        const k = Object.keys(e).find((x) => x.endsWith('EventAttributes') && (e as Record<string, unknown>)[x]);
        return k?.replace('EventAttributes', '') ?? '?';
      });
      const offers = await sql<
        { id: string; status: string; offered_at: Date; expires_at: Date; responded_at: Date | null }[]
      >`
        select id, status, offered_at, expires_at, responded_at from offers where booking_ref = ${b.ref} order by offered_at`;
      console.log(
        `open: ${b.ref} (${kinds.get(b.ref)}) ${b.status} since ${b.updated_at.toISOString()}, pickup ${b.pickup_at.toISOString()}; workflow ${d.status.name}, ${d.historyLength} events, last: ${last.join(' > ')}; ` +
          `offers: ${offers.map((o) => `${o.id.split(':').slice(1).join(':')} ${o.status} ${o.offered_at.toISOString().slice(11, 19)}-${o.expires_at.toISOString().slice(11, 19)}${o.responded_at ? ` answered ${o.responded_at.toISOString().slice(11, 19)}` : ''}`).join(', ')}`,
      );
    }
  }

  async function costOf(
    refs: string[],
    cpuBefore: ReturnType<typeof cpuSnapshot>,
    before: StoreStats,
    idlePerSecond: Map<string, number>,
    idleStoresPerSecond: StoreStats,
    seconds: number,
  ): Promise<CityCost> {
    const cpu = cpuPerOperation(cpuBefore, cpuSnapshot(), refs.length);
    const cpuNet = new Map(
      [...cpu].map(([k, v]) => [
        k,
        Math.max(0, v - ((idlePerSecond.get(k) ?? 0) * seconds) / Math.max(1, refs.length)),
      ]),
    );
    // Statistics reach pg_stat_database when a backend goes idle (at most a second late).
    await sleep(1500);
    // Net of what the stores do idle (the sample reads pg_stat_database itself, a few commits).
    const used = diffStats(diffStats(await storeStats(sql), before), scaleStats(idleStoresPerSecond, seconds));
    const per = (x: number) => Math.max(0, x) / Math.max(1, refs.length);
    const lengths: number[] = [];
    // Which events a booking's history is made of, to see what a change to the workflow saves.
    const eventKinds = new Map<string, number>();
    const sample = refs.slice(0, 60);
    for (const ref of sample) {
      const handle = client.workflow.getHandle(bookingWorkflowId(ref));
      const d = await handle.describe().catch(() => null);
      if (d) lengths.push(d.historyLength);
      const history = await handle.fetchHistory().catch(() => null);
      for (const e of history?.events ?? []) {
        const kind = eventKindName(e);
        eventKinds.set(kind, (eventKinds.get(kind) ?? 0) + 1);
      }
    }
    lengths.sort((a, b) => a - b);
    return {
      bookings: refs.length,
      cpuMs: Object.fromEntries(cpuNet),
      cpuMsWithIdle: Object.fromEntries(cpu),
      idleCpuMsPerSecond: Object.fromEntries(idlePerSecond),
      service: { commits: per(used.service.commits), rowWrites: per(used.service.rowWrites) },
      temporal: { commits: per(used.temporal.commits), rowWrites: per(used.temporal.rowWrites) },
      walBytes: per(used.wal),
      historyEventsMean: lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length),
      historyEventsP90: percentile(lengths, 90),
      historyEventKinds: Object.fromEntries(
        [...eventKinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, n / Math.max(1, sample.length)]),
      ),
    };
  }

  function printCost(c: CityCost): void {
    const f1 = (x: number) => x.toFixed(1);
    const service = Object.entries(c.cpuMs).filter(([k]) => isService(k));
    console.log(
      `\nWhat a booking cost, from the first arrival to the end of the drain (${c.bookings} bookings made; the whole lifecycle, idle time included):`,
    );
    console.log('| per booking | value |');
    console.log('|---|---:|');
    for (const [k, v] of service.sort())
      console.log(
        `| CPU ms, ${k} (with its idle share; idle ms a second) | ${f1(v)} (${f1(c.cpuMsWithIdle[k] ?? 0)}; ${f1(c.idleCpuMsPerSecond[k] ?? 0)}) |`,
      );
    const gross = Object.entries(c.cpuMsWithIdle)
      .filter(([k]) => isService(k))
      .reduce((n, [, v]) => n + v, 0);
    console.log(
      `| **CPU ms, the service's processes** (with their idle share) | **${f1(service.reduce((n, [, v]) => n + v, 0))}** (${f1(gross)}) |`,
    );
    console.log(
      `| CPU ms, the simulation (drivers, passengers, partners; not the service) | ${f1(c.cpuMs['bench client'] ?? 0)} |`,
    );
    console.log(
      `| Postgres transactions / rows written, the service's database | ${f1(c.service.commits)} / ${f1(c.service.rowWrites)} |`,
    );
    console.log(
      `| Postgres transactions / rows written, Temporal's databases | ${f1(c.temporal.commits)} / ${f1(c.temporal.rowWrites)} |`,
    );
    console.log(`| write-ahead log KB (the whole server) | ${f1(c.walBytes / 1024)} |`);
    console.log(
      `| history events per booking workflow, mean / p90 | ${f1(c.historyEventsMean)} / ${c.historyEventsP90} |`,
    );
    for (const [kind, n] of Object.entries(c.historyEventKinds)) console.log(`| of which ${kind} | ${f1(n)} |`);
  }

  let exitCode = 0;
  let result: CityResult = {
    ok: false,
    offered: 0,
    accepted: 0,
    shed: 0,
    phaseSeconds: 0,
    drained: false,
    failures: 0,
    invariantsBroken: 0,
    kinds: null,
  };
  let driverLoopDone: Promise<void> = Promise.resolve();
  try {
    await waitForHttp(`${apiUrl}/readyz`);
    const places = await locate();
    if (places.pickups.length === 0 || places.dropoffs.length === 0) throw new Error('no usable places');
    // Drivers round Piccadilly, 0.3-6 km out on a golden-angle spiral, local to the pickups' area.
    await sql`
      insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, vehicle_description, plate, seats, online, lat, lon, location_at)
      select ${driverPrefix} || g, 'City driver ' || g, '+4477' || lpad(g::text, 8, '0'), 'local', ${places.area}, true,
             'saloon', 'Skoda Octavia', 'CT' || g, 4, true,
             ${places.centre.lat}::float8 + (300 + (g % 58) * 100) / 111320.0 * cos(g * 2.39996),
             ${places.centre.lon}::float8 + (300 + (g % 58) * 100) / (111320.0 * cos(radians(${places.centre.lat}::float8))) * sin(g * 2.39996),
             now()
        from generate_series(1, ${driverCount}::int) g`;
    await sql.unsafe('vacuum analyze drivers');
    // Drivers report their position the way the app does, so none goes stale during the run.
    const keepFresh = setInterval(
      () => void sql`update drivers set location_at = now() where id like ${`${driverPrefix}%`}`.catch(() => undefined),
      120_000,
    );
    console.log(
      `bench city${opts.label ? ` (${opts.label})` : ''}: ${driverCount} drivers (local, ${places.area}), ${rate}/s for ${seconds} s (${places.pickups.length} pickups, ${places.dropoffs.length} drop-offs); ` +
        `immediate ${(1 - sharePrebooked - sharePartner).toFixed(2)}, pre-booked ${sharePrebooked}, partner ${sharePartner}; cancel ${shareCancel}, partner amend ${shareAmend}; ` +
        `drivers accept ${pAccept}${mixed > 0 ? ` (mixed fleet: half x ${1 + mixed}, half x ${(1 - mixed).toFixed(2)})` : ''}, decline ${pDecline}, drop ${pDrop}, ignore ${(1 - pAccept - pDecline - pDrop).toFixed(2)} after ${answerMin}-${answerMax} s; one tap ${oneTap}; ` +
        `offer timeout ${offerTimeout} s (unseen cut ${unseenCut} s, group ${groupSize}), dispatch lead ${dispatchLead} s; ${workerCount} worker(s); seed ${seed}; Temporal ${stack.temporalAddress} (${stack.topology})`,
    );

    // Baseline in the same run: one booking at a time with nothing else happening, to its first job
    // card (no driver answers yet); each is cancelled by its passenger before the next.
    const base: number[] = [];
    const baseCard: number[] = [];
    let historyRef: string | null = null;
    for (let i = 0; i < 10; i++) {
      const sentAt = Date.now();
      const r = await post(
        '/api/public/bookings/instant',
        {
          pickup_address: places.pickups[0],
          dropoff_address: places.dropoffs[0],
          passenger_name: 'City Passenger',
          passenger_phone_whatsapp: nextPhone(),
          passenger_count: 1,
        },
        { 'x-api-key': key },
      );
      serial++;
      if (r.status !== 200) throw new Error(`baseline booking ${r.status} ${JSON.stringify(r.json)}`);
      const ref = r.json.booking_reference as string;
      historyRef ??= ref;
      for (let tries = 0; tries < 600; tries++) {
        const [c] = await sql<{ card_ms: number | null; created_ms: number }[]>`
          select (select extract(epoch from min(o.created_at))::float8 * 1000 from outbox o
                   where o.booking_ref = ${ref} and o.channel = 'sms' and o.body like 'New job%') as card_ms,
                 extract(epoch from b.created_at)::float8 * 1000 as created_ms
            from bookings b where b.ref = ${ref}`;
        if (c?.card_ms != null) {
          if (i >= 2) {
            base.push(c.card_ms - sentAt);
            baseCard.push(c.card_ms - c.created_ms);
          }
          break;
        }
        await sleep(20);
      }
      const x = await post(`/api/public/v1/booking/${ref}`, {
        action: 'cancel',
        token: r.json.manage_token as string,
        reason: 'baseline',
      });
      if (x.status !== 200) throw new Error(`baseline cancel ${x.status} ${JSON.stringify(x.json)}`);
    }
    // A week of cards on record for each driver, answered as they answer (what ranking reads), on
    // the first baseline booking (an offer names a booking); accepted or left, never withdrawn.
    if (historyCards > 0 && historyRef) {
      const rows = [];
      for (let g = 1; g <= driverCount; g++) {
        const driverId = `${driverPrefix}${g}`;
        for (let i = 0; i < historyCards; i++) {
          const at = new Date(Date.now() - (i + 1) * 12 * 3600_000);
          const answered = behaviourOf(driverId, seededRandom(seed, 'history', String(g), i)());
          rows.push({
            id: `${historyRef}:hist${i}:${driverId}`,
            booking_ref: historyRef,
            driver_id: driverId,
            round: 1000 + i,
            tier: 'local',
            status: answered === 'ignore' ? 'timed_out' : answered === 'decline' ? 'declined' : 'accepted',
            offered_at: at,
            expires_at: new Date(at.getTime() + offerTimeout * 1000),
            responded_at: at,
          });
        }
      }
      for (let i = 0; i < rows.length; i += 5000) await sql`insert into offers ${sql(rows.slice(i, i + 5000))}`;
      console.log(`history: ${rows.length} job cards on record (${historyCards} a driver), mixed fleet ${mixed}`);
    }
    // What the processes use doing nothing (pollers, Temporal's and Postgres' housekeeping), per
    // second, so the cost per booking can leave out the idle share of a long drain.
    const idleFrom = cpuSnapshot();
    const idleStores = await storeStats(sql);
    const idleStarted = performance.now();
    await sleep(IDLE_SAMPLE_MS);
    const idleSeconds = (performance.now() - idleStarted) / 1000;
    const idlePerSecond = cpuPerOperation(idleFrom, cpuSnapshot(), idleSeconds);
    const idleStoresPerSecond = scaleStats(diffStats(await storeStats(sql), idleStores), 1 / idleSeconds);
    driverLoopDone = driverLoop();

    const storesBefore = await storeStats(sql);
    const cpuBefore = cpuSnapshot();
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate);
      while (offered < due) arrival(places);
      await sleep(50);
    }
    const phaseSeconds = (performance.now() - started) / 1000;
    // Requests sent during the arrivals count once answered, however late.
    while (inflight > 0) await sleep(50);
    const acceptedInPhase = made.length;
    console.log(
      `arrivals over after ${phaseSeconds.toFixed(0)} s: ${made.length} bookings accepted, ${shed} shed; waiting for dispatch and trips to finish (at most ${drainSeconds} s)`,
    );
    const drainUntil = Date.now() + drainSeconds * 1000;
    const refs = () => made.map((m) => m.ref);
    while (Date.now() < drainUntil && !((await settled(refs())) && pending.size === 0)) await sleep(2000);
    const drained = (await settled(refs())) && pending.size === 0;
    simStopped = true;
    await driverLoopDone;
    clearInterval(keepFresh);
    const cost = await costOf(
      made.map((m) => m.ref),
      cpuBefore,
      storesBefore,
      idlePerSecond,
      idleStoresPerSecond,
      (performance.now() - started) / 1000,
    );

    if (!drained) await explainOpen(made);

    // ---- read back --------------------------------------------------------------------------------
    const kindOf = new Map(made.map((m) => [m.ref, m.kind]));
    type Row = {
      ref: string;
      status: string;
      created_ms: number;
      card_ms: number | null;
      dispatch_ms: number | null;
      assigned_ms: number | null;
      sms_cards: number;
      sms_all: number;
    };
    const rows = await sql<Row[]>`
      select b.ref, b.status,
             extract(epoch from b.created_at)::float8 * 1000 as created_ms,
             (select extract(epoch from min(o.created_at))::float8 * 1000 from outbox o
               where o.booking_ref = b.ref and o.channel = 'sms' and o.body like 'New job%') as card_ms,
             (select extract(epoch from min(c.changed_at))::float8 * 1000 from booking_status_changes c
               where c.booking_ref = b.ref and c.status = 'dispatching') as dispatch_ms,
             (select extract(epoch from min(c.changed_at))::float8 * 1000 from booking_status_changes c
               where c.booking_ref = b.ref and c.status = 'assigned') as assigned_ms,
             -- What drivers paid for this booking's cards (2p each): the offer policy texts one driver of a group.
             (select count(*)::int from outbox o where o.booking_ref = b.ref and o.channel = 'sms' and o.body like 'New job%') as sms_cards,
             -- Every text this booking cost, to drivers and to the passenger.
             (select count(*)::int from outbox o where o.booking_ref = b.ref and o.channel = 'sms') as sms_all
        from bookings b where b.ref in ${sql(refs())}`;
    const byStatus: Record<string, number> = {};
    for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    const [offerCounts] = await sql<
      { offers: number; accepted: number; declined: number; timed_out: number; withdrawn: number; payments: number }[]
    >`
      select count(*)::int as offers,
             count(*) filter (where status = 'accepted')::int as accepted,
             count(*) filter (where status = 'declined')::int as declined,
             count(*) filter (where status = 'timed_out')::int as timed_out,
             count(*) filter (where status = 'withdrawn')::int as withdrawn,
             (select count(*)::int from payment_records where booking_ref in ${sql(refs())}) as payments
        from offers where booking_ref in ${sql(refs())}`;

    const sentOf = new Map(made.map((m) => [m.ref, m.sentAt]));
    const figuresOf = (rs: Row[]): KindFigures => {
      const card = rs
        .filter((r) => r.card_ms && r.dispatch_ms)
        .map((r) => r.card_ms! - (kindOf.get(r.ref) === 'immediate' ? r.created_ms : r.dispatch_ms!));
      const fromPost = rs
        .filter((r) => r.card_ms && sentOf.get(r.ref) !== undefined && kindOf.get(r.ref) === 'immediate')
        .map((r) => r.card_ms! - sentOf.get(r.ref)!);
      const assign = rs
        .filter((r) => r.assigned_ms && r.dispatch_ms)
        .map((r) => r.assigned_ms! - (kindOf.get(r.ref) === 'immediate' ? r.created_ms : r.dispatch_ms!));
      const dispatched = rs.filter((r) => r.dispatch_ms !== null);
      const notCancelled = dispatched.filter((r) => r.status !== 'cancelled');
      return {
        made: rs.length,
        cancelled: rs.filter((r) => r.status === 'cancelled').length,
        cardFromPostP50: pct(fromPost, 50),
        cardFromPostP99: pct(fromPost, 99),
        cardP50: pct(card, 50),
        cardP99: pct(card, 99),
        assignedP50: pct(assign, 50),
        assignedP90: pct(assign, 90),
        assignedP99: pct(assign, 99),
        dispatchedNotCancelled: notCancelled.length,
        assigned: notCancelled.filter((r) => r.assigned_ms !== null).length,
        smsCardsPerBooking: dispatched.length
          ? dispatched.reduce((n, r) => n + r.sms_cards, 0) / dispatched.length
          : NaN,
        smsPerBooking: rs.length ? rs.reduce((n, r) => n + r.sms_all, 0) / rs.length : NaN,
      };
    };
    const line = (label: string, f: KindFigures) => {
      const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-');
      const never = f.dispatchedNotCancelled - f.assigned;
      const share = (n: number) => (f.dispatchedNotCancelled ? ((100 * n) / f.dispatchedNotCancelled).toFixed(1) : '-');
      const two = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
      return `| ${label} | ${f.made} | ${f.cancelled} | ${ms(f.cardFromPostP50)} / ${ms(f.cardFromPostP99)} | ${ms(f.cardP50)} / ${ms(f.cardP99)} | ${s1(f.assignedP50)} | ${s1(f.assignedP90)} | ${s1(f.assignedP99)} | ${f.assigned} / ${f.dispatchedNotCancelled} (${share(f.assigned)} %) | ${never} (${share(never)} %) | ${two(f.smsCardsPerBooking)} | ${two(f.smsPerBooking)} |`;
    };
    const kinds: CityResult['kinds'] = {
      immediate: figuresOf(rows.filter((r) => kindOf.get(r.ref) === 'immediate')),
      prebooked: figuresOf(rows.filter((r) => kindOf.get(r.ref) === 'prebooked')),
      partner: figuresOf(rows.filter((r) => kindOf.get(r.ref) === 'partner')),
      all: figuresOf(rows),
    };
    const inv = await invariants(refs());

    const replies = [...replyMs.immediate, ...replyMs.prebooked, ...replyMs.partner];
    console.log(
      `\n${drained ? 'every due booking settled' : `drain timed out after ${drainSeconds} s with bookings still open`}; final statuses: ${Object.entries(
        byStatus,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    console.log(
      `driver answers: ${Object.entries(answers)
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')}`,
    );
    if (Object.keys(failures).length)
      console.log(
        `failures: ${Object.entries(failures)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ')}`,
      );
    console.log(
      `offers: ${offerCounts!.offers} (accepted ${offerCounts!.accepted}, declined ${offerCounts!.declined}, timed out ${offerCounts!.timed_out}, withdrawn ${offerCounts!.withdrawn}); trips settled in cash: ${offerCounts!.payments}`,
    );
    console.log(`\n| measurement | value |`);
    console.log(`|---|---:|`);
    console.log(`| drivers online in the city | ${driverCount.toLocaleString('en-GB')} |`);
    console.log(
      `| bookings offered / accepted by the API / shed (over ${maxInflight} in flight) | ${offered} / ${acceptedInPhase} / ${shed} |`,
    );
    console.log(
      `| bookings per second sustained (accepted, ${phaseSeconds.toFixed(0)} s) | ${(acceptedInPhase / phaseSeconds).toFixed(2)} |`,
    );
    console.log(
      `| booking reply p50 / p99 ms (immediate and pre-booked; partner) | ${pct([...replyMs.immediate, ...replyMs.prebooked], 50).toFixed(0)} / ${pct([...replyMs.immediate, ...replyMs.prebooked], 99).toFixed(0)}; ${pct(replyMs.partner, 50).toFixed(0)} / ${pct(replyMs.partner, 99).toFixed(0)} |`,
    );
    console.log(
      `| baseline in the same run, 8 bookings one at a time before the city starts: first job card from POST / from created_at p50 ms | ${pct(base, 50).toFixed(0)} / ${pct(baseCard, 50).toFixed(0)} |`,
    );
    console.log(`| all replies p50 / p99 ms | ${pct(replies, 50).toFixed(0)} / ${pct(replies, 99).toFixed(0)} |`);
    console.log(
      `\nFirst job card from the POST (immediate only: the client's clock just before sending, the same host's as Postgres), and from the booking row's created_at ` +
        `(immediate) or the start of its dispatch (pre-booked and partner: the durable timer firing, the first 'dispatching' in booking_status_changes); ` +
        `assigned (the first 'assigned') from the same start, including the drivers' 2-20 s to answer and every decline and timeout before. ` +
        `Assigned and never assigned: of bookings whose dispatch began and that were not cancelled. ` +
        `SMS cards: job-card texts to drivers per booking dispatched; SMS sent: every text in the outbox (drivers' and passenger's) per booking made.\n`,
    );
    console.log(
      '| bookings | made | cancelled | first job card from POST p50 / p99 ms | first job card p50 / p99 ms | assigned p50 s | p90 s | p99 s | assigned | never assigned | SMS cards per booking | SMS sent per booking |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(line('immediate', kinds.immediate));
    console.log(line('pre-booked', kinds.prebooked));
    console.log(line('partner jobs', kinds.partner));
    console.log(line('all', kinds.all));
    const late = rows.filter((r) => kindOf.get(r.ref) !== 'immediate' && r.dispatch_ms !== null);
    console.log(`\n| invariant (must be 0) | count |`);
    console.log(`|---|---:|`);
    console.log(
      `| driver held two jobs at once (held periods overlap, trip windows within 20 min) | ${inv.held_two} |`,
    );
    console.log(`| driver held two open job cards at once | ${inv.two_cards} |`);
    console.log(`| driver offered a card while holding an overlapping job | ${inv.card_while_holding} |`);
    console.log(`| booking with two job cards open at once | ${inv.two_cards_one_booking} |`);
    console.log(`| booking accepted by a second driver while the first still held it | ${inv.accepted_while_held} |`);
    console.log(
      `(for information: pairs of jobs one driver held at once whatever their trip windows: ${inv.held_two_any_window}; pre-booked dispatches begun: ${late.length}; ` +
        `cards accepted after their expiry: ${inv.accepted_after_expiry}; accepted after pickup plus the no-show grace: ${inv.accepted_after_grace}; ` +
        `drivers let go as no-shows: ${inv.no_show_releases})`,
    );
    printCost(cost);
    const broken =
      inv.held_two + inv.two_cards + inv.card_while_holding + inv.two_cards_one_booking + inv.accepted_while_held;
    if (broken > 0) {
      console.error(`bench city: ${broken} invariant violations; evidence in ${await keepEvidence(inv.pairs)}`);
      exitCode = 1;
    }
    if (acceptedInPhase === 0) exitCode = 1;
    result = {
      ok: exitCode === 0,
      offered,
      accepted: acceptedInPhase,
      shed,
      phaseSeconds,
      drained,
      failures: Object.values(failures).reduce((n, x) => n + x, 0),
      invariantsBroken: broken,
      kinds,
      cost,
    };
  } catch (err) {
    console.error(err);
    result = { ...result, ok: false, error: String(err) };
  } finally {
    simStopped = true;
    await driverLoopDone.catch(() => undefined);
    if (external) {
      await sql`update drivers set online = false where id like ${`${driverPrefix}%`}`.catch(() => undefined);
      for (const m of made)
        await client.workflow
          .getHandle(bookingWorkflowId(m.ref))
          .terminate('benchmark over')
          .catch(() => undefined);
    }
    await connection.close();
    await Promise.all([api.stop(), ...workers.map((w) => w.stop())]);
    await sql.end();
    if (!opts.stack) await stack.stop();
  }
  return result;
}

/** The two policies' figures per kind of booking, side by side, with new / old. */
export function printComparison(old: CityResult, now: CityResult, labels: { old: string; now: string }): void {
  const ratio = (a: number, b: number) =>
    Number.isFinite(a) && Number.isFinite(b) && a > 0 ? (b / a).toFixed(2) : '-';
  const sec = (x: number) => (Number.isFinite(x) ? (x / 1000).toFixed(1) : '-');
  const never = (f: KindFigures) =>
    f.dispatchedNotCancelled ? (100 * (f.dispatchedNotCancelled - f.assigned)) / f.dispatchedNotCancelled : NaN;
  const pc = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} %` : '-');
  const two = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
  const measures: [string, (f: KindFigures) => number, (x: number) => string][] = [
    ['accepted driver p50 s', (f) => f.assignedP50, sec],
    ['accepted driver p90 s', (f) => f.assignedP90, sec],
    ['accepted driver p99 s', (f) => f.assignedP99, sec],
    ['never assigned', never, pc],
    ['SMS cards per booking', (f) => f.smsCardsPerBooking, two],
    ['SMS sent per booking', (f) => f.smsPerBooking, two],
    ['first job card p99 ms', (f) => f.cardP99, (x) => (Number.isFinite(x) ? x.toFixed(0) : '-')],
  ];
  console.log(`\n| bookings | measurement | ${labels.old} | ${labels.now} | new / old |`);
  console.log('|---|---|---:|---:|---:|');
  const names = { immediate: 'immediate', prebooked: 'pre-booked', partner: 'partner jobs', all: 'all' } as const;
  for (const k of ['immediate', 'prebooked', 'partner', 'all'] as const) {
    const a = old.kinds?.[k];
    const b = now.kinds?.[k];
    if (!a || !b) continue;
    for (const [label, get, fmt] of measures)
      console.log(`| ${names[k]} | ${label} | ${fmt(get(a))} | ${fmt(get(b))} | ${ratio(get(a), get(b))} |`);
  }
  console.log(`| all | bookings made / shed | ${old.accepted} / ${old.shed} | ${now.accepted} / ${now.shed} | |`);
  const serviceCpu = (r: CityResult) =>
    r.cost
      ? Object.entries(r.cost.cpuMs)
          .filter(([k]) => isService(k))
          .reduce((n, [, v]) => n + v, 0)
      : NaN;
  const events = (r: CityResult) => r.cost?.historyEventsMean ?? NaN;
  const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
  console.log(
    `| all | CPU ms per booking, the service's processes | ${f1(serviceCpu(old))} | ${f1(serviceCpu(now))} | ${ratio(serviceCpu(old), serviceCpu(now))} |`,
  );
  console.log(
    `| all | history events per booking workflow | ${f1(events(old))} | ${f1(events(now))} | ${ratio(events(old), events(now))} |`,
  );
}

async function main(): Promise<number> {
  const cfg = cityConfigFromEnv();
  if (process.argv.includes('--compare-ranking')) return compareRanking(cfg);
  if (!process.argv.includes('--compare')) return (await runCity(cfg, { seed: process.env.CITY_SEED })).ok ? 0 : 1;
  // Both policies on one stack, one seed: the same bookings arrive at the same moments and each
  // driver answers their nth card alike, so what differs is the policy (and the machine's noise).
  const seed = process.env.CITY_SEED ?? randomUUID().slice(0, 8);
  const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
  try {
    const oldCfg = { ...cfg, ...OLD_OFFER_POLICY };
    const labels = {
      old: `old: group 1, no unseen cut, ${oldCfg.offerTimeout} s`,
      now: `new: group ${cfg.groupSize}, unseen cut ${cfg.unseenCut} s, ${cfg.offerTimeout} s`,
    };
    const old = await runCity(oldCfg, { stack, seed, label: labels.old });
    const now = await runCity(cfg, { stack, seed, label: labels.now });
    console.log(
      `\nbench city --compare (seed ${seed}, ${stack.topology}): the same arrivals and drivers under each policy`,
    );
    printComparison(old, now, labels);
    return old.ok && now.ok ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

/** Distance alone, then ranked by how drivers answer: one stack, one seed, the same mixed fleet. */
async function compareRanking(cfg: CityConfig): Promise<number> {
  const seed = process.env.CITY_SEED ?? randomUUID().slice(0, 8);
  const stack = await startBenchStack({ postgres: await freePort(), temporal: await freePort() });
  try {
    const handicap = cfg.answerHandicap ?? 2000;
    const labels = { old: 'old: distance alone', now: `new: ranked by answers (${handicap} m handicap)` };
    const old = await runCity({ ...cfg, answerHandicap: 0 }, { stack, seed, label: labels.old });
    const now = await runCity({ ...cfg, answerHandicap: handicap }, { stack, seed, label: labels.now });
    console.log(
      `\nbench city --compare-ranking (seed ${seed}, ${stack.topology}, mixed fleet ${cfg.mixed}): the same arrivals and drivers`,
    );
    printComparison(old, now, labels);
    return old.ok && now.ok ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(await main());
