// /ops/bookings (src/pages/ops-bookings-page.ts): live bookings, those without a driver near pickup
// first; a booking's whole story from its reference, staff's actions on it, and its decision log
// with a driver filter that says why a driver was not offered the job. The board comes a page at
// a time, each look one request, refreshed every 30 s while the tab is shown.
import {
  $,
  $button,
  bindListFilters,
  $input,
  $select,
  button,
  el,
  input,
  keyConsole,
  label,
  latestOnly,
  say,
  sayError,
  whileShown,
} from './dom.js';
import { londonTime, pounds, words } from './format.js';
import { londonInstant } from './london-time.js';

const REFRESH_MS = 30000;

interface Driver {
  id: string;
  name: string | null;
}

interface BoardBooking {
  ref: string;
  status: string;
  pickup_at_london: string;
  minutes_to_pickup: number;
  driver: Driver | null;
  without_driver: boolean;
  alerted_at: string | null;
  links: { workflow: string };
}

interface Board {
  counts: Record<string, number>;
  alert_minutes: number;
  bookings: BoardBooking[];
  q: string | null;
  total: number;
  offset: number;
  limit: number;
  previous_offset: number | null;
  next_offset: number | null;
}

interface Story {
  booking: {
    ref: string;
    status: string;
    pickup_at_london: string;
    pickup: string;
    dropoff: string;
    passenger: { name: string; phone: string; email: string | null };
    passengers: number;
    vehicle_type: string;
    wheelchair: boolean;
    fare_pence: number;
    payment_method: string;
    driver: Driver | null;
    source: string;
    partner: { id: string; job_ref: string | null } | null;
    alerted_at: string | null;
    links: { workflow: string };
  };
  status_changes: { at_london: string; previous_status: string | null; status: string; driver_id: string | null }[];
  rounds: { round: number; tier: string; considered: number; eligible: number; at: string }[];
  messages: {
    created_at: string;
    channel: string;
    to: string;
    subject: string | null;
    key: string;
    sent_at: string | null;
    withheld: string | null;
    attempts: number;
    failure: { at: string; status: number | null; code: string | null; error: string; refused: boolean } | null;
  }[];
  payments: {
    recorded_at: string;
    amount_pence: number;
    method: string;
    recorded_by: string;
    corrects: string | null;
  }[];
  staff_actions: { at: string; action: string; by: string; reason: string | null }[];
}

interface DecisionLog {
  driver: {
    explanation: string;
    considered: boolean;
    now: {
      id: string;
      name: string;
      tier: string;
      status: string;
      online: boolean;
      location_age_seconds: number | null;
      distance_now_m: number;
      tier_reach_m: number | null;
    };
  } | null;
  decisions: {
    round: number;
    tier: string;
    driver_id: string;
    driver_name: string | null;
    distance_m: number | null;
    rank_m: number | null;
    answer_rate: number | null;
    eligible: boolean;
    skip_reason: string | null;
    decided_at: string;
  }[];
  truncated: boolean;
  offers: {
    round: number;
    driver_id: string;
    driver_name: string | null;
    status: string;
    claimed_from_board: boolean;
    offered_at: string;
    responded_at: string | null;
  }[];
}

type Cell = Node | string | number | null | undefined;

const staff = keyConsole({
  storageKey: 'directTaxiStaffKey',
  consoleId: 'console',
  invalid: 'That staff key is not valid.',
});
const get = <T>(path: string) => staff.api.json<T>('GET', path);
const post = <T>(path: string, body: unknown) => staff.api.json<T>('POST', path, body);
const london = (iso: string | null | undefined) => londonTime(iso, { seconds: true });

/** A message's Sent cell: when, why it was held back, or what the provider said when it did not take it. */
function messageOutcome(m: Story['messages'][number]): string {
  if (m.sent_at) return london(m.sent_at);
  if (m.withheld) return `held back: ${m.withheld.split('_').join(' ')}`;
  if (!m.failure) return 'not sent';
  const said = [m.failure.status, m.failure.code ? `error ${m.failure.code}` : null].filter(Boolean).join(', ');
  const tries = `${m.attempts} attempt${m.attempts === 1 ? '' : 's'}`;
  return `${m.failure.refused ? 'refused' : 'not sent yet'} (${said || 'no answer'}; ${tries}): ${m.failure.error}`;
}

let current: string | null = null;
const bookingPath = (action: string) => `/api/ops/bookings/${encodeURIComponent(current ?? '')}/${action}`;

/** A form of labelled text fields in one row (`.toolbar`), with its submit button last. */
function toolbarForm(): HTMLFormElement {
  return el('form', undefined, 'toolbar');
}

function field(form: HTMLFormElement, id: string, text: string, type = 'text'): HTMLInputElement {
  const wrap = el('div');
  const i = input(type, id);
  i.autocomplete = 'off';
  wrap.append(label(text, id), i);
  form.append(wrap);
  return i;
}

/** `run` on submit, its button disabled meanwhile, its failure said. */
function onSubmit(form: HTMLFormElement, go: HTMLButtonElement, run: () => Promise<void>): void {
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    go.disabled = true;
    run()
      .catch(sayError)
      .finally(() => {
        go.disabled = false;
      });
  });
}

function submitButton(text: string, cls?: string): HTMLButtonElement {
  const b = el('button', text, cls);
  b.type = 'submit';
  return b;
}

// Staff act on the booking opened: each with a reason, recorded, refused with the service's reason.
function actionForm(text: string, what: string, action: 'release' | 'cancel'): HTMLFormElement {
  const form = toolbarForm();
  const reason = field(form, `act-${action}`, 'Reason (recorded)');
  reason.maxLength = 300;
  reason.required = true;
  const go = submitButton(text, action === 'cancel' ? 'decline' : undefined);
  form.append(go);
  onSubmit(form, go, async () => {
    const ref = current;
    await post(bookingPath(action), { reason: reason.value.trim() });
    await openStory(ref!);
    say(`${what} ${ref}.`, true);
  });
  return form;
}

// Nobody holds it: offer it to a driver staff name (their id, from the drivers console).
function offerForm(): HTMLFormElement {
  const form = toolbarForm();
  const driver = field(form, 'offer-driver', 'Driver id');
  const reason = field(form, 'offer-reason', 'Reason (recorded)');
  for (const i of [driver, reason]) {
    i.required = true;
    i.spellcheck = false;
  }
  const go = submitButton('Offer to this driver');
  form.append(go);
  onSubmit(form, go, async () => {
    const ref = current;
    const r = await post<{ offered_to: string }>(bookingPath('offer'), {
      driver_id: driver.value.trim(),
      reason: reason.value.trim(),
    });
    await openStory(ref!);
    say(`Offered ${ref} to ${r.offered_to}.`, true);
  });
  return form;
}

// A new time, pickup or drop-off: only what is typed changes.
function amendForm(b: Story['booking']): HTMLFormElement {
  const form = toolbarForm();
  const pickup = field(form, 'amend-pickup', 'New pickup');
  pickup.placeholder = b.pickup;
  const dropoff = field(form, 'amend-dropoff', 'New drop-off');
  dropoff.placeholder = b.dropoff;
  const when = field(form, 'amend-when', 'New pickup time (London)', 'datetime-local');
  const reason = field(form, 'amend-reason', 'Reason (recorded)');
  reason.required = true;
  reason.maxLength = 300;
  const go = submitButton('Change the booking');
  form.append(go);
  onSubmit(form, go, async () => {
    const body: { reason: string; pickup?: string; dropoff?: string; pickup_at?: string } = {
      reason: reason.value.trim(),
    };
    if (pickup.value.trim()) body.pickup = pickup.value.trim();
    if (dropoff.value.trim()) body.dropoff = dropoff.value.trim();
    // datetime-local is London wall time: sent as the instant it names (london-time.ts).
    if (when.value) {
      const at = londonInstant(when.value);
      if (!at.ok) throw new Error(at.problem);
      body.pickup_at = at.iso;
    }
    const ref = current;
    await post(bookingPath('amend'), body);
    await openStory(ref!);
    say(`Changed ${ref}.`, true);
  });
  return form;
}

function table(caption: string, head: string[], rows: Cell[][]): HTMLElement {
  // Focusable and named, so a keyboard can scroll a wide table on a phone.
  const wrap = el('div', undefined, 'table-scroll');
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-label', caption);
  const t = el('table');
  t.append(el('caption', caption, 'visually-hidden'));
  const tr = el('tr');
  for (const h of head) {
    const th = el('th', h);
    th.scope = 'col';
    tr.append(th);
  }
  const thead = el('thead');
  thead.append(tr);
  const tbody = el('tbody');
  for (const r of rows) {
    const row = el('tr');
    for (const c of r) {
      const td = el('td');
      if (c instanceof Node) td.append(c);
      else td.textContent = c === null || c === undefined ? '—' : String(c);
      row.append(td);
    }
    tbody.append(row);
  }
  t.append(thead, tbody);
  wrap.append(t);
  return wrap;
}

function workflowLink(b: { links: { workflow: string } }): HTMLAnchorElement {
  const a = el('a', 'Workflow history');
  a.href = b.links.workflow;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  return a;
}

const params = new URLSearchParams(location.search);
const view = {
  status: params.get('status') || '',
  q: params.get('q') || '',
  offset: Math.max(0, Number(params.get('offset')) || 0),
};
let board: Board | null = null;
let boardSig = '';
const latestBoard = latestOnly();

function boardQuery(): URLSearchParams {
  const q = new URLSearchParams();
  if (view.status) q.set('status', view.status);
  if (view.q) q.set('q', view.q);
  if (view.offset) q.set('offset', String(view.offset));
  return q;
}

// The page's place is in its address (a reload opens where it was): the board's search, status and
// page, and the booking open.
function syncUrl(): void {
  const q = boardQuery();
  if (current) q.set('ref', current);
  history.replaceState(null, '', `/ops/bookings${q.toString() ? `?${q.toString()}` : ''}`);
}

function openButton(ref: string): HTMLButtonElement {
  const b = button(ref, 'decline');
  b.dataset.ref = ref;
  b.addEventListener('click', () => void openStory(ref).catch(sayError));
  return b;
}

function range(b: Board): string {
  const first = b.total === 0 ? 0 : b.offset + 1;
  return `${first}–${b.offset + b.bookings.length} of ${b.total}`;
}

async function loadBoard(): Promise<void> {
  const q = boardQuery();
  const answer = await latestBoard(() => get<Board>(`/api/ops/bookings${q.toString() ? `?${q.toString()}` : ''}`));
  if (!answer) return;
  board = answer;
  syncUrl();
  $('counts').textContent =
    Object.entries(board.counts)
      .map(([k, v]) => `${words(k)}: ${v}`)
      .join(', ') || 'No live bookings.';
  $('alert-minutes').textContent = String(board.alert_minutes);
  $('board-count').textContent = board.q
    ? board.total === 0
      ? `No booking matches “${board.q}”.`
      : `Bookings matching “${board.q}”, open or closed, latest pickup first: ${range(board)}.`
    : board.total === 0
      ? ''
      : `Showing ${range(board)}.`;
  $('board-pager').hidden = board.total <= board.limit && board.offset === 0;
  $button('board-prev').disabled = board.previous_offset === null;
  $button('board-next').disabled = board.next_offset === null;
  $('board-page').textContent =
    `Page ${Math.floor(board.offset / board.limit) + 1} of ${Math.max(1, Math.ceil(board.total / board.limit))}`;
  // Redrawn only when something on it changed (minutes to pickup count as a change).
  const sig = JSON.stringify(board.bookings);
  if (sig === boardSig) return;
  boardSig = sig;
  const rows = board.bookings.map((b): Cell[] => [
    openButton(b.ref),
    words(b.status),
    b.pickup_at_london,
    `${b.minutes_to_pickup} min`,
    b.driver ? b.driver.name || b.driver.id : b.without_driver ? 'No driver' : '—',
    b.alerted_at ? `Alerted ${london(b.alerted_at)}` : '',
    workflowLink(b),
  ]);
  $('board').replaceChildren(
    table(
      board.q ? 'Bookings found' : 'Live bookings, those without a driver first',
      ['Booking', 'Status', 'Pickup (London)', 'In', 'Driver', 'Ops alert', 'Temporal'],
      rows,
    ),
  );
}

function turn(offset: number | null | undefined): void {
  if (offset === null || offset === undefined) return;
  view.offset = offset;
  loadBoard()
    .then(() => $('board-title').focus())
    .catch(sayError);
}

function section(title: string, ...children: Node[]): HTMLElement {
  const s = el('section', undefined, 'card');
  s.append(el('h3', title), ...children);
  return s;
}

const driverLabel = (d: { driver_name: string | null; driver_id: string }) => `${d.driver_name || ''} (${d.driver_id})`;

function renderDecisions(log: DecisionLog): void {
  const out: Node[] = [];
  if (log.driver) {
    const p = el('p', log.driver.explanation, `alert ${log.driver.considered ? 'ok' : 'error'}`);
    p.id = 'driver-answer';
    const n = log.driver.now;
    const where =
      n.location_age_seconds === null
        ? ', no position on record'
        : `, position ${Math.round(n.location_age_seconds / 60)} min old, ${(n.distance_now_m / 1000).toFixed(1)} km from the pickup`;
    const reach = n.tier_reach_m ? ` (the tier reads drivers within ${n.tier_reach_m / 1000} km).` : '.';
    const facts = el(
      'p',
      `Now: ${n.name} (${n.id}), ${n.tier} tier, ${n.status}, ${n.online ? 'online' : 'offline'}${where}${reach}`,
      'hint',
    );
    out.push(p, facts);
  }
  out.push(
    table(
      'Dispatch decisions',
      ['Round', 'Tier', 'Driver', 'Distance', 'Ranked as', 'Decision', 'At (London)'],
      log.decisions.map((d) => [
        d.round,
        d.tier,
        driverLabel(d),
        d.distance_m === null ? 'no position' : `${(d.distance_m / 1000).toFixed(1)} km`,
        rankedAs(d),
        d.eligible ? 'eligible' : `skipped: ${words(d.skip_reason)}`,
        london(d.decided_at),
      ]),
    ),
  );
  if (log.truncated) out.push(el('p', 'Only the first decisions are listed: filter by driver.', 'hint'));
  out.push(
    el('h4', 'Offers'),
    table(
      'Offers',
      ['Round', 'Driver', 'Outcome', 'Offered', 'Answered'],
      log.offers.map((o) => [
        o.round,
        driverLabel(o),
        words(o.status) + (o.claimed_from_board ? ' (claimed from the board)' : ''),
        london(o.offered_at),
        london(o.responded_at),
      ]),
    ),
  );
  $('decisions').replaceChildren(...out);
}

async function loadDecisions(): Promise<void> {
  const driver = $input('driver-filter').value.trim();
  renderDecisions(
    await get<DecisionLog>(bookingPath('decisions') + (driver ? `?driver_id=${encodeURIComponent(driver)}` : '')),
  );
}

function storyFacts(b: Story['booking']): HTMLElement {
  const facts = el('dl', undefined, 'facts');
  const partner = b.partner ? `, partner ${b.partner.id}${b.partner.job_ref ? ` job ${b.partner.job_ref}` : ''}` : '';
  const rows: [string, string][] = [
    ['Pickup', `${b.pickup_at_london}, ${b.pickup}`],
    ['Drop-off', b.dropoff],
    ['Passenger', b.passenger.name + ', ' + b.passenger.phone + (b.passenger.email ? `, ${b.passenger.email}` : '')],
    ['Trip', `${b.passengers} passengers, ${words(b.vehicle_type)}${b.wheelchair ? ', wheelchair' : ''}`],
    ['Fare', `${pounds(b.fare_pence)}, ${words(b.payment_method)}`],
    ['Driver', b.driver ? `${b.driver.name || ''} (${b.driver.id})` : 'none'],
    ['Source', words(b.source) + partner],
    ['Ops alert', b.alerted_at ? london(b.alerted_at) : 'none'],
  ];
  for (const [k, v] of rows) facts.append(el('dt', k), el('dd', v));
  return facts;
}

function storySections(story: Story): HTMLElement[] {
  return [
    section(
      'Status changes',
      table(
        'Status changes',
        ['At (London)', 'From', 'To', 'Driver'],
        story.status_changes.map((c) => [c.at_london, words(c.previous_status), words(c.status), c.driver_id]),
      ),
    ),
    section(
      'Dispatch rounds',
      table(
        'Dispatch rounds',
        ['Round', 'Tier', 'Drivers read', 'Eligible', 'At (London)'],
        story.rounds.map((r) => [r.round, r.tier, r.considered, r.eligible, london(r.at)]),
      ),
    ),
    section(
      'Messages sent',
      table(
        'Messages sent',
        ['Created (London)', 'Channel', 'To', 'What', 'Sent'],
        story.messages.map((m) => [
          london(m.created_at),
          m.channel,
          m.to,
          m.subject || m.key.split(':')[0],
          messageOutcome(m),
        ]),
      ),
    ),
    section(
      'Payment records',
      table(
        'Payment records',
        ['Recorded (London)', 'Amount', 'Method', 'By', 'Corrects'],
        story.payments.map((p) => [
          london(p.recorded_at),
          pounds(p.amount_pence),
          words(p.method),
          p.recorded_by,
          p.corrects,
        ]),
      ),
    ),
    section(
      'Staff actions',
      table(
        'Staff actions',
        ['At (London)', 'Action', 'By', 'Reason'],
        story.staff_actions.map((a) => [london(a.at), words(a.action.replace('booking.', '')), a.by, a.reason]),
      ),
    ),
  ];
}

function actions(b: Story['booking']): HTMLElement | null {
  if (['completed', 'cancelled', 'no_show', 'on_board'].includes(b.status)) return null;
  const acts: HTMLElement[] = [];
  if (b.driver && ['assigned', 'en_route', 'arrived'].includes(b.status)) {
    acts.push(actionForm('Take the job off this driver', 'Released the driver of', 'release'));
  }
  if (!b.driver) acts.push(offerForm());
  if (!['en_route', 'arrived'].includes(b.status)) acts.push(amendForm(b));
  acts.push(actionForm('Cancel this booking', 'Cancelled', 'cancel'));
  return section('Act on this booking', ...acts);
}

// A late answer to an older look never replaces a newer one (nor the form being typed in it).
const latestStory = latestOnly();

async function openStory(ref: string): Promise<void> {
  const story = await latestStory(() => get<Story>(`/api/ops/bookings/${encodeURIComponent(ref)}`));
  if (!story) return;
  const b = story.booking;
  current = b.ref;
  $('story-title').textContent = `Booking ${b.ref}: ${words(b.status)}`;
  const wl = el('p');
  wl.append(workflowLink(b));
  $('story-body').replaceChildren(storyFacts(b), wl, ...storySections(story));
  const acting = actions(b);
  if (acting) $('story-body').append(acting);
  $('story').hidden = false;
  $input('ref').value = b.ref;
  syncUrl();
  await loadDecisions();
  $('story-title').focus();
}

// The board keeps itself current: one request a look, every 30 s while the tab is shown.
const refresh = () => {
  if (staff.signedIn() && !document.hidden) loadBoard().catch(sayError);
};

bindListFilters(view, { status: 'status', form: 'board-search', query: 'board-q' }, loadBoard);
$('refresh').addEventListener('click', () => {
  loadBoard()
    .then(() => say('', true))
    .catch(sayError);
});
$('board-prev').addEventListener('click', () => turn(board?.previous_offset));
$('board-next').addEventListener('click', () => turn(board?.next_offset));
$('find-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  say('', true);
  openStory($input('ref').value.trim().toUpperCase()).catch(sayError);
});
$('driver-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  loadDecisions()
    .then(() => say('', true))
    .catch(sayError);
});
whileShown(REFRESH_MS, refresh);
staff.start(async () => {
  $select('status').value = view.status;
  $input('board-q').value = view.q;
  // A link to one booking opens its story alongside the board, so a slow or refused board never
  // keeps ops from the booking they came for.
  const ref = params.get('ref');
  await Promise.all([loadBoard(), ref ? openStory(ref) : undefined]);
});

/** "2.6 km (accepts 21 % of cards)": what dispatch ranked the driver on (docs/dispatch.md, "Ranking"). */
function rankedAs(d: { rank_m: number | null; answer_rate: number | null }): string {
  if (d.rank_m === null) return '—';
  const rate = d.answer_rate === null ? '' : ` (accepts ${Math.round(d.answer_rate * 100)} % of cards)`;
  return `${(d.rank_m / 1000).toFixed(1)} km${rate}`;
}
