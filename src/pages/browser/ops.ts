// /ops (src/pages/ops-page.ts): applicants and drivers a page at a time (50, searched by name or
// phone), each with its documents, staff actions and fleet history, approved, rejected, suspended
// or reinstated with a reason; trials extended; passengers blocked; drivers' papers reviewed
// (ops-driver-changes.ts). Refreshed every 30 s while the tab is shown; the page's place (status,
// search, page) is in its address.
import {
  $,
  $button,
  bindListFilters,
  $input,
  $select,
  button,
  download,
  el,
  input,
  keyConsole,
  label,
  latestOnly,
  say,
  sayError,
  typingIn,
  whileShown,
} from './dom.js';
import { isoMinute } from './format.js';
import { opsDriverChanges } from './ops-driver-changes.js';

const REFRESH_MS = 30000;

type Status = 'applicant' | 'approved' | 'suspended' | 'rejected';

interface Driver {
  id: string;
  name: string;
  status: Status;
  phone: string;
  email: string;
  licensing_authority: string;
  driver_licence_number: string;
  driver_licence_expires: string;
  vehicle_licence_number: string;
  vehicle_licence_expires: string;
  vehicle: string;
  vehicle_registration: string;
  seats: number;
  wheelchair_accessible: boolean;
  tier: string;
  home_area: string | null;
  fleet_id: string | null;
  requested_fleet_id: string | null;
  online: boolean;
  receiving_jobs: { yes: boolean; message: string };
  documents: { id: string; kind: string }[];
  actions: {
    at: string;
    action: string;
    by: string;
    reason: string | null;
    details: { requested_fleet_id?: string; fleet_granted?: boolean } | null;
  }[];
  fleet: {
    history: { at: string; fleet_id: string; event: string; by: string; by_kind: string; reason: string | null }[];
  };
}

interface DriverList {
  drivers: Driver[];
  total: number;
  offset: number;
  limit: number;
  q: string | null;
  previous_offset: number | null;
  next_offset: number | null;
}

const ACTIONS: Record<Status, [string, string][]> = {
  applicant: [
    ['approve', 'Approve'],
    ['reject', 'Reject'],
  ],
  approved: [['suspend', 'Suspend']],
  suspended: [['reinstate', 'Reinstate']],
  rejected: [],
};

const staff = keyConsole({
  storageKey: 'directTaxiStaffKey',
  consoleId: 'console',
  invalid: 'That staff key is not valid.',
});
const api = staff.api;
const loadChanges = opsDriverChanges(api);
const driverPath = (id: string, what: string) => `/api/ops/drivers/${encodeURIComponent(id)}/${what}`;

const params = new URLSearchParams(location.search);
const view = {
  status: params.has('status') ? (params.get('status') ?? '') : 'applicant',
  q: params.get('q') || '',
  offset: Math.max(0, Number(params.get('offset')) || 0),
};
let page: DriverList | null = null;

async function decide(
  driverId: string,
  action: string,
  reason: HTMLInputElement,
  grantFleet: HTMLInputElement | null,
): Promise<void> {
  const grant = action === 'approve' && grantFleet?.checked ? grantFleet.value : null;
  await api.send('POST', driverPath(driverId, 'decision'), {
    action,
    reason: reason.value.trim() || null,
    grant_fleet_id: grant,
  });
  say(`Driver ${driverId}: ${action} recorded.`, true);
  await load();
}

/** A driver's staff actions and fleet events, oldest first, as the card's history lists them. */
function historyLines(d: Driver): [string, string][] {
  const actions = d.actions.map((a): [string, string] => {
    const asked = a.details?.requested_fleet_id
      ? ` (asked for fleet ${a.details.requested_fleet_id}${a.details.fleet_granted ? ', granted' : ', left to its operator'})`
      : '';
    return [a.at, `${a.action} by ${a.by}${asked}${a.reason ? `: ${a.reason}` : ''}`];
  });
  const fleet = d.fleet.history.map((e): [string, string] => [
    e.at,
    `fleet ${e.fleet_id} ${e.event} by ${e.by} (${e.by_kind})${e.reason ? `: ${e.reason}` : ''}`,
  ]);
  return [...actions, ...fleet].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

function trialControls(d: Driver, reason: HTMLInputElement): HTMLElement[] {
  // Administrators only (the API says so to anyone else).
  const daysId = `trial-days-${d.id}`;
  const days = input('number', daysId);
  days.min = '1';
  days.max = '365';
  days.value = '14';
  const extend = button('Extend trial', 'decline');
  extend.addEventListener('click', () => {
    api
      .json<{ trial_ends_at: string }>('POST', driverPath(d.id, 'trial'), {
        days: Number(days.value),
        reason: reason.value.trim(),
      })
      .then(async (r) => {
        say(`Trial of ${d.id} now ends ${r.trial_ends_at.slice(0, 10)}.`, true);
        await load();
      })
      .catch(sayError);
  });
  return [label('Extend the free trial by (days)', daysId), days, extend];
}

// One driver's card, from the list's own answer: the list brings each driver's documents,
// staff actions and fleet history, so a page of drivers is one request.
function driverCard(d: Driver): HTMLElement {
  const card = el('article', undefined, 'card');
  card.dataset.driver = d.id;
  card.append(el('h3', `${d.name} (${d.status})`));
  const facts = el('dl', undefined, 'facts');
  const rows: [string, string | null][] = [
    ['Phone', d.phone],
    ['Email', d.email],
    ['Authority', d.licensing_authority],
    ['Driver licence', `${d.driver_licence_number}, expires ${d.driver_licence_expires}`],
    ['Vehicle licence', `${d.vehicle_licence_number}, expires ${d.vehicle_licence_expires}`],
    [
      'Vehicle',
      `${d.vehicle}, ${d.vehicle_registration}, ${d.seats} seats${d.wheelchair_accessible ? ', wheelchair accessible' : ''}`,
    ],
    ['Tier', d.tier + (d.home_area ? `, ${d.home_area}` : '')],
    ['Fleet', d.fleet_id],
    [
      'Asks to join fleet',
      d.requested_fleet_id
        ? `${d.requested_fleet_id} (not a member until its operator accepts, or you grant it below)`
        : null,
    ],
  ];
  for (const [k, v] of rows) facts.append(el('dt', k), el('dd', v || '—'));
  card.append(facts);
  // Online but passed over by dispatch: said on the card, with the reason the driver is given.
  if (d.status === 'approved' && d.online) {
    const r = d.receiving_jobs;
    card.append(
      el(
        'p',
        r.yes ? 'Online and getting jobs.' : `Online but not getting jobs: ${r.message}`,
        r.yes ? 'hint' : 'alert error',
      ),
    );
  }
  for (const doc of d.documents) {
    const b = button(`Download ${doc.kind.replace(/_/g, ' ')}`, 'decline');
    b.addEventListener('click', () => {
      api
        .send('GET', driverPath(d.id, `documents/${doc.id}`))
        .then((res) => download(res, `${d.id}-${doc.kind}`))
        .catch(sayError);
    });
    card.append(b);
  }
  const reasonId = `reason-${d.id}`;
  const reason = input('text', reasonId);
  card.append(label('Reason (recorded)', reasonId), reason);
  let grantFleet: HTMLInputElement | null = null;
  if (d.status === 'applicant' && d.requested_fleet_id) {
    // Granting a fleet is a separate, visible choice: approving the driver alone leaves it to the operator.
    const choice = el('label', undefined, 'choice');
    grantFleet = el('input');
    grantFleet.type = 'checkbox';
    grantFleet.value = d.requested_fleet_id;
    choice.append(
      grantFleet,
      document.createTextNode(` Also put them in fleet ${d.requested_fleet_id} (checked with its operator)`),
    );
    card.append(choice);
  }
  const actions = el('div', undefined, 'actions');
  for (const [action, text] of ACTIONS[d.status] ?? []) {
    const b = button(text, action === 'approve' || action === 'reinstate' ? undefined : 'decline');
    b.addEventListener('click', () => void decide(d.id, action, reason, grantFleet).catch(sayError));
    actions.append(b);
  }
  card.append(actions);
  if (d.status === 'approved') card.append(...trialControls(d, reason));
  const lines = historyLines(d);
  if (lines.length) {
    const log = el('ul');
    for (const [at, what] of lines) log.append(el('li', `${isoMinute(at)} ${what}`));
    card.append(el('h4', 'History'), log);
  }
  card.dataset.sig = JSON.stringify(d);
  return card;
}

// Only what changed is redrawn: a card whose driver is as before is kept as it is, with whatever
// was typed into it.
function render(list: DriverList): void {
  const box = $('drivers');
  const old = new Map([...box.children].map((c) => [(c as HTMLElement).dataset.driver, c as HTMLElement]));
  const cards = list.drivers.map((d) => {
    const o = old.get(d.id);
    return o && o.dataset.sig === JSON.stringify(d) ? o : driverCard(d);
  });
  if (cards.length !== box.children.length || cards.some((c, i) => box.children[i] !== c)) {
    box.replaceChildren(...cards);
  }
  $('none').hidden = list.total > 0;
  const first = list.total === 0 ? 0 : list.offset + 1;
  const last = list.offset + list.drivers.length;
  $('drivers-count').textContent =
    list.total === 0 ? '' : `Showing ${first}–${last} of ${list.total}${list.q ? ` matching “${list.q}”` : ''}.`;
  $('pager').hidden = list.total <= list.limit && list.offset === 0;
  $button('prev').disabled = list.previous_offset === null;
  $button('next').disabled = list.next_offset === null;
  $('page-info').textContent =
    `Page ${Math.floor(list.offset / list.limit) + 1} of ${Math.max(1, Math.ceil(list.total / list.limit))}`;
}

const latest = latestOnly();

async function load(): Promise<void> {
  const q = new URLSearchParams();
  q.set('status', view.status);
  if (view.q) q.set('q', view.q);
  if (view.offset) q.set('offset', String(view.offset));
  history.replaceState(null, '', `/ops?${q.toString()}`);
  // Everyone: no status filter at all.
  const asked = view.status ? q : new URLSearchParams([...q].filter(([k]) => k !== 'status'));
  const list = await latest(() => api.json<DriverList>('GET', `/api/ops/drivers?${asked.toString()}`));
  if (!list) return;
  page = list;
  render(page);
}

function turn(offset: number | null | undefined): void {
  if (offset === null || offset === undefined) return;
  view.offset = offset;
  load()
    .then(() => $('drivers-title').focus())
    .catch(sayError);
}

// Skipped while the tab is hidden or someone is typing on a card; the next look catches up.
function refresh(): void {
  if (!staff.signedIn() || document.hidden || typingIn($('drivers'), 'INPUT')) return;
  load().catch(sayError);
  if (!typingIn($('changes'), 'INPUT')) loadChanges().catch(sayError);
}

bindListFilters(view, { status: 'status', form: 'driver-search', query: 'driver-q' }, load);
$('prev').addEventListener('click', () => turn(page?.previous_offset));
$('next').addEventListener('click', () => turn(page?.next_offset));
$('block-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const email = $input('block-email').value;
  const action = $select('block-action').value;
  api
    .send('POST', '/api/ops/passengers', { email, action, reason: $input('block-reason').value })
    .then(() => say(`Passenger ${email}: ${action} recorded.`, true))
    .catch(sayError);
});
whileShown(REFRESH_MS, refresh);
staff.start(async () => {
  $select('status').value = view.status;
  $input('driver-q').value = view.q;
  await Promise.all([load(), loadChanges()]);
});
