// The operator dashboard (src/pages/operator-page.ts): a week of the bridge's jobs as a calendar of
// seven London days and as a table by pickup time, each assignable to a driver of the operator's
// fleet; drivers asking to join, and the fleet itself. One request (GET /api/operator/dashboard)
// repeated every 15 s while the tab is shown, redrawing only what changed.
import { $, $input, button, el, keyConsole, label, latestOnly, say, sayError, typingIn, whileShown } from './dom.js';

const REFRESH_MS = 15000;

interface FleetDriver {
  id: string;
  name: string;
  online: boolean;
  vehicle: string;
  plate: string;
}

interface Job {
  ref: string;
  jobRef: string | null;
  day: string;
  pickupLocal: string;
  pickup: string;
  dropoff: string;
  passengerName: string;
  passengers: number;
  vehicleType: string;
  notes: string | null;
  status: string;
  driverId: string | null;
  driverName: string | null;
  offeredTo: string | null;
}

interface Day {
  date: string;
  label: string;
  today: boolean;
}

interface JoinRequest {
  id: string;
  name: string;
  phone: string;
  vehicle: string;
  registration: string | null;
  seats: number;
  driverStatus: string;
  requestedAt: string;
}

interface Dashboard {
  operator: string;
  drivers: FleetDriver[];
  days: Day[];
  jobs: Job[];
  requests: JoinRequest[];
}

type ShownJob = Job & { dayLabel: string };

const operator = keyConsole({
  storageKey: 'directTaxiOperatorKey',
  consoleId: 'dashboard',
  invalid: 'That operator key is not valid.',
});
const api = operator.api;
let drivers: FleetDriver[] = [];
let driversSig = '';

// Only what changed is redrawn: an element whose data is as before is kept as it is (a driver
// picked in a row's select stays picked).
function patch<T>(
  box: HTMLElement,
  items: T[],
  keyOf: (x: T) => string,
  render: (x: T) => HTMLElement,
  sigOf: (x: T) => string,
): void {
  const old = new Map([...box.children].map((c) => [(c as HTMLElement).dataset.key, c as HTMLElement]));
  const next = items.map((x) => {
    const k = keyOf(x);
    const sig = sigOf(x);
    const o = old.get(k);
    if (o && o.dataset.sig === sig) return o;
    const n = render(x);
    n.dataset.key = k;
    n.dataset.sig = sig;
    return n;
  });
  if (next.length !== box.children.length || next.some((c, i) => box.children[i] !== c)) box.replaceChildren(...next);
}

const assignable = (j: Job) => !j.driverId && !j.offeredTo && ['scheduled', 'unassigned'].includes(j.status);
const jobName = (j: Job) => j.jobRef || j.ref;

function whoFor(j: Job): string {
  if (j.driverName) return j.driverName;
  if (!j.offeredTo) return '';
  return `offered to ${drivers.find((d) => d.id === j.offeredTo)?.name ?? j.offeredTo}`;
}

function statusText(j: Job): string {
  const who = whoFor(j);
  return j.status.replace(/_/g, ' ') + (who ? `: ${who}` : '');
}

/** A button whose action is followed by a fresh look, its failure said. */
function act(text: string, cls: string | undefined, run: () => Promise<unknown>): HTMLButtonElement {
  const b = button(text, cls);
  b.addEventListener('click', () => {
    run().then(load).catch(sayError);
  });
  return b;
}

function row(j: ShownJob): HTMLElement {
  const tr = el('tr');
  tr.dataset.ref = j.ref;
  tr.append(
    el('td', j.dayLabel),
    el('td', j.pickupLocal),
    el('td', jobName(j)),
    el('td', `${j.pickup} → ${j.dropoff}`),
    el('td', `${j.passengerName}, ${j.passengers} pax, ${j.vehicleType}${j.notes ? ` (${j.notes})` : ''}`),
    el('td', statusText(j), 'job-status'),
  );
  const cell = el('td');
  if (assignable(j)) {
    const id = `driver-${j.ref}`;
    const pick = el('select');
    pick.id = id;
    for (const d of drivers) {
      const o = el('option', `${d.name}${d.online ? '' : ' (offline)'}, ${d.vehicle}`);
      o.value = d.id;
      pick.append(o);
    }
    const assign = act('Assign', undefined, async () => {
      await api.send('POST', `/api/operator/jobs/${encodeURIComponent(j.ref)}/assign`, { driverId: pick.value });
      say(`Job card sent for ${jobName(j)}.`, true);
    });
    cell.append(label(`Driver for ${jobName(j)}`, id, 'visually-hidden'), pick, assign);
  }
  tr.append(cell);
  return tr;
}

// The week calendar: seven London days, each job on its pickup day by pickup time.
function dayBox(day: Day & { jobs: ShownJob[] }): HTMLElement {
  const box = el('section', undefined, day.today ? 'today' : undefined);
  box.dataset.day = day.date;
  const h = el('h3', day.label + (day.today ? ' (today)' : ''));
  h.id = `day-${day.date}`;
  box.setAttribute('aria-labelledby', h.id);
  box.append(h);
  if (day.jobs.length === 0) {
    box.append(el('p', 'No jobs', 'hint'));
    return box;
  }
  const list = el('ul');
  for (const j of day.jobs) {
    const li = el(
      'li',
      `${j.pickupLocal} ${jobName(j)}, ${statusText(j)}`,
      assignable(j) ? 'open' : j.driverId ? 'taken' : undefined,
    );
    li.dataset.calendarRef = j.ref;
    list.append(li);
  }
  box.append(list);
  return box;
}

function requestRow(q: JoinRequest): HTMLElement {
  const tr = el('tr');
  tr.dataset.request = q.id;
  tr.append(
    el('td', `${q.name}, ${q.phone}`),
    el('td', `${q.vehicle}${q.registration ? ` (${q.registration})` : ''}, ${q.seats} seats`),
    el('td', q.driverStatus),
    el('td', q.requestedAt.slice(0, 10)),
  );
  const answer = async (decision: 'accept' | 'refuse') => {
    await api.send('POST', `/api/operator/fleet-requests/${encodeURIComponent(q.id)}/decision`, { decision });
    say(q.name + (decision === 'accept' ? ' joined your fleet.' : ' was refused.'), true);
  };
  const cell = el('td');
  cell.append(
    act(`Accept ${q.name}`, undefined, () => answer('accept')),
    act(`Refuse ${q.name}`, 'decline', () => answer('refuse')),
  );
  tr.append(cell);
  return tr;
}

function memberRow(d: FleetDriver): HTMLElement {
  const tr = el('tr');
  tr.dataset.driver = d.id;
  tr.append(el('td', d.name), el('td', `${d.vehicle}, ${d.plate}`), el('td', d.online ? 'online' : 'offline'));
  const cell = el('td');
  cell.append(
    act(`Remove ${d.name}`, 'decline', async () => {
      await api.send('DELETE', `/api/operator/drivers/${encodeURIComponent(d.id)}`);
      say(`${d.name} is no longer in your fleet.`, true);
    }),
  );
  tr.append(cell);
  return tr;
}

const latest = latestOnly();

// Everything on the page comes from this one request, which the page repeats to stay current.
async function load(): Promise<void> {
  const from = $input('day').value;
  const dash = await latest(() =>
    api.json<Dashboard>('GET', `/api/operator/dashboard${from ? `?from=${encodeURIComponent(from)}` : ''}`),
  );
  if (!dash) return;
  drivers = dash.drivers;
  driversSig = JSON.stringify(drivers);
  $('operator-name').textContent = dash.operator;
  const labels = new Map(dash.days.map((d) => [d.date, d.label]));
  const jobs: ShownJob[] = dash.jobs.map((j) => ({ ...j, dayLabel: labels.get(j.day) ?? j.day }));
  patch(
    $('week'),
    dash.days.map((d) => ({ ...d, jobs: jobs.filter((j) => j.day === d.date) })),
    (d) => d.date,
    dayBox,
    (d) => JSON.stringify(d) + driversSig,
  );
  patch(
    $('jobs'),
    jobs,
    (j) => j.ref,
    row,
    (j) => JSON.stringify(j) + (assignable(j) || j.offeredTo ? driversSig : ''),
  );
  $('none').hidden = jobs.length > 0;
  patch(
    $('requests'),
    dash.requests,
    (q) => q.id,
    requestRow,
    (q) => JSON.stringify(q),
  );
  $('no-requests').hidden = dash.requests.length > 0;
  patch(
    $('members'),
    drivers,
    (d) => d.id,
    memberRow,
    (d) => JSON.stringify(d),
  );
  $('no-members').hidden = drivers.length > 0;
  const now = new Date().toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });
  $('updated').textContent = `Updated ${now} (London); refreshed every ${REFRESH_MS / 1000} s.`;
}

// Skipped while the tab is hidden or a driver is being picked; the next look catches up.
function refresh(): void {
  if (!operator.signedIn() || document.hidden || typingIn($('jobs'), 'SELECT')) return;
  load().catch(sayError);
}

$input('day').value = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
$('day').addEventListener('change', () => void load().catch(sayError));
$('refresh').addEventListener('click', () => void load().catch(sayError));
whileShown(REFRESH_MS, refresh);
operator.start(load);
