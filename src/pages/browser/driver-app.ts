// The driver app (src/pages/driver-app-page.ts): sign in with a texted code, go online (the
// browser's location then feeds dispatch), answer offers, drive the trip and confirm what was
// paid, take upcoming jobs, see earnings, invoices and papers. Everything goes through the API a
// native app would call (src/routes/driver-app.ts); the session token stays on the phone.
import { $, $button, $input, button, el, input, jsonApi, label, say, sayError } from './dom.js';
import { driverMapKey, type MapService } from './driver-map-key.js';
import { driverPapers } from './driver-papers.js';
import { pounds, londonTime as when, words } from './format.js';
import { heartbeatDue, locationProblem as problemFor } from './location.js';
import { passengerNeeds, tripWords, vehicleNeeds } from './words.js';

const TOKEN = 'directTaxiDriverSession';
const STEP: Record<string, string> = {
  confirm: 'Confirm I am doing this job',
  en_route: 'On my way',
  arrived: 'Arrived at pickup',
  on_board: 'Passenger on board',
  completed: 'Trip completed',
  no_show: 'Passenger did not come',
};
const PAYMENT_WORDS: Record<string, string> = {
  paid: 'Paid',
  unpaid: 'Unpaid',
  overdue: 'Overdue',
  nothing_due: 'Nothing due',
  below_minimum: 'Under 30p: not collected',
  not_collected: 'Not collected',
};
const PAID_WITH: [string, string][] = [
  ['cash', 'Cash'],
  ['card', 'Card reader'],
  ['payment_link', 'My payment link'],
  ['bank_transfer', 'Bank transfer'],
  ['account', 'Account'],
];

interface Job {
  booking_reference: string;
  offer_id: string;
  offer: string;
  pickup_time: string;
  pickup: string;
  pickup_note: string | null;
  dropoff: string;
  passengers: number;
  vehicle_type: string;
  wheelchair: boolean;
  fare_pence: number;
  payment_method: string;
  own_rate: boolean;
  flight_number: string | null;
  meet_and_greet: boolean;
  assistance_dog: boolean;
  help_finding_vehicle: boolean;
  notes: string | null;
  passenger: { name: string; phone: string } | null;
  status: string;
  next_steps: string[];
  awaiting_payment: boolean;
}

interface UpcomingJob {
  booking_reference: string;
  pickup_time_london: string;
  pickup_area: string;
  dropoff_area: string;
  fare_pence: number;
  payment_method: string;
  own_rate: boolean;
  distance_miles: number;
  passengers: number;
  vehicle_type: string;
  wheelchair: boolean;
  meet_and_greet: boolean;
  assistance_dog: boolean;
  help_finding_vehicle: boolean;
  miles_from_you: number | null;
}

interface Receiving {
  yes: boolean;
  message: string;
}

interface Me {
  driver: { name: string; online: boolean };
  receiving_jobs: Receiving;
  completed_rides: number;
  earnings_pence: number;
  dead_mileage_miles: number;
  paid_weeks: number;
  free_weeks: number;
  subscription: { state: string; trial_days_remaining: number } | null;
  map_service: MapService | null;
}

interface Invoice {
  week_start: string;
  earnings_pence: number;
  lines: { description: string; amount_pence: number }[];
  total_pence: number;
  payment: { status: string; pay_url: string | null };
}

let token = localStorage.getItem(TOKEN);
let online = false;
let watch: number | null = null;
let lastSent = 0;
let phone = '';

const api = jsonApi({
  credential: () => token,
  onUnauthorized: () => {
    signedOut();
    return 'Your session has ended. Sign in again.';
  },
  fallback: 'Something went wrong. Please try again.',
});

function signedOut(): void {
  token = null;
  localStorage.removeItem(TOKEN);
  stopLocation();
  $('app').hidden = true;
  $('sign-in').hidden = false;
}

/** A button that runs `onClick`, disabled meanwhile, its failure said. */
function action(text: string, onClick: () => Promise<void>, cls?: string): HTMLButtonElement {
  const b = button(text, cls);
  b.addEventListener('click', () => {
    b.disabled = true;
    onClick()
      .catch(sayError)
      .finally(() => {
        b.disabled = false;
      });
  });
  return b;
}

/** A definition list that leaves out what has no value. */
function factList(): { facts: HTMLElement; fact: (k: string, v: string | number | null | undefined) => void } {
  const facts = el('dl', undefined, 'facts');
  const fact = (k: string, v: string | number | null | undefined) => {
    if (v === null || v === undefined || v === '') return;
    facts.append(el('dt', k), el('dd', String(v)));
  };
  return { facts, fact };
}

const fareText = (j: { fare_pence: number; payment_method: string; own_rate: boolean }) =>
  `${pounds(j.fare_pence)} paid to you (${words(j.payment_method)})${j.own_rate ? ', at your own approved rate' : ''}`;
const MEET = 'Meet the passenger inside arrivals with a name board';

// Online means dispatchable: the position goes on a heartbeat even while the car stands still on
// a rank (the browser reports a position only when it changes), and the driver is told plainly
// when the phone cannot give one. Dispatch passes over a position older than 10 minutes.
let lastFix: { lat: number; lon: number; accuracy_m: number } | null = null;
let locationProblem = '';
let receiving: Receiving | null = null;

const postFix = () =>
  api.send('POST', '/api/driver/location', lastFix).then(() => {
    lastSent = Date.now();
  }, sayError);

function sendLocation(pos: GeolocationPosition): void {
  lastFix = { lat: pos.coords.latitude, lon: pos.coords.longitude, accuracy_m: pos.coords.accuracy };
  locationProblem = '';
  if (Date.now() - lastSent < 10000) return;
  lastSent = Date.now();
  void postFix();
}

function startLocation(): void {
  if (!('geolocation' in navigator)) {
    locationProblem = 'This browser cannot share your location: use another browser to get jobs.';
    return;
  }
  if (watch !== null) return;
  watch = navigator.geolocation.watchPosition(
    sendLocation,
    (err) => {
      locationProblem = problemFor(err.code);
      showReceiving();
    },
    { enableHighAccuracy: true, maximumAge: 15000 },
  );
}

function stopLocation(): void {
  if (watch !== null) navigator.geolocation.clearWatch(watch);
  watch = null;
}

// Checked every 5 s, not once a heartbeat: a timer a whole heartbeat long, started before the
// first fix, could find the last send a moment too recent and skip a whole minute more.
setInterval(() => {
  if (token && online && lastFix && !locationProblem && heartbeatDue(lastSent, Date.now())) void postFix();
}, 5000);

function showReceiving(): void {
  const r = receiving;
  const problem = online ? locationProblem || (r && !r.yes ? r.message : '') : '';
  $('online-state').textContent = !online
    ? 'You are offline'
    : problem
      ? 'You are online, but not getting jobs'
      : 'You are online and getting jobs';
  $('receiving').textContent = problem;
  $('receiving').hidden = !problem;
}

/** What the passenger paid; with them still on board (`completes`), confirming it also completes the trip. */
function paymentForm(j: Job, base: string, completes: boolean): HTMLFormElement {
  const form = el('form', undefined, 'payment');
  const id = `pay-${j.booking_reference}`;
  const method = el('select');
  method.id = `${id}-method`;
  method.name = 'method';
  for (const [v, t] of PAID_WITH) {
    const o = el('option', t);
    o.value = v;
    method.append(o);
  }
  const amount = input('number', `${id}-amount`);
  amount.step = '0.01';
  amount.min = '0';
  amount.inputMode = 'decimal';
  amount.value = (j.fare_pence / 100).toFixed(2);
  const reason = input('text', `${id}-reason`);
  reason.maxLength = 300;
  reason.autocomplete = 'off';
  const submit = el('button', completes ? 'Complete the trip and confirm payment' : 'Confirm payment');
  submit.type = 'submit';
  form.append(
    el('h3', 'Payment received'),
    ...(completes ? [el('p', 'Confirming the payment also completes the trip.')] : []),
    label('How did the passenger pay?', method.id),
    method,
    label('Amount received (£)', amount.id),
    amount,
    label('If less than the fare, why', reason.id),
    reason,
    submit,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    const why = reason.value.trim();
    api
      .send('POST', `${base}/payment`, {
        method: method.value,
        amount: Number(amount.value),
        ...(why ? { reason: why } : {}),
      })
      .then(async () => {
        say('Payment recorded. Thank you.', true);
        await refresh();
      })
      .catch(sayError)
      .finally(() => {
        submit.disabled = false;
      });
  });
  return form;
}

function renderJob(j: Job): HTMLElement {
  const card = el('div', undefined, 'card job');
  card.dataset.ref = j.booking_reference;
  card.append(el('h2', (j.offer === 'offered' ? 'New job ' : 'Job ') + j.booking_reference));
  const { facts, fact } = factList();
  fact('Pickup', when(j.pickup_time));
  fact('From', j.pickup + (j.pickup_note ? ` (${j.pickup_note})` : ''));
  fact('To', j.dropoff);
  fact('Passengers', j.passengers);
  fact('Vehicle', vehicleNeeds(j.vehicle_type, j.wheelchair));
  fact('Fare', fareText(j));
  fact('Flight', j.flight_number);
  if (j.meet_and_greet) fact('Meet and greet', MEET);
  for (const n of passengerNeeds(j)) fact(n.label, n.text);
  fact('Notes', j.notes);
  if (j.passenger) {
    facts.append(el('dt', 'Passenger'));
    const dd = el('dd', `${j.passenger.name}, `);
    const a = el('a', j.passenger.phone);
    a.href = `tel:${j.passenger.phone}`;
    dd.append(a);
    facts.append(dd);
    fact('Trip', tripWords(j.status));
  }
  card.append(facts);
  const base = `/api/driver/jobs/${encodeURIComponent(j.offer_id)}`;
  const actions = el('div', undefined, 'actions');
  if (j.offer === 'offered') {
    actions.append(
      action('Accept', async () => {
        await api.send('POST', `${base}/respond`, { decision: 'accept' });
        say('Job accepted. It is yours.', true);
        await refresh();
      }),
      action(
        'Decline',
        async () => {
          await api.send('POST', `${base}/respond`, { decision: 'decline' });
          await refresh();
        },
        'decline',
      ),
    );
  }
  for (const step of j.next_steps) {
    actions.append(
      action(
        STEP[step] || step,
        async () => {
          await api.send('POST', `${base}/trip`, { event: step });
          await refresh();
        },
        step === 'no_show' ? 'decline' : undefined,
      ),
    );
  }
  if (actions.childElementCount) card.append(actions);
  const onBoard = j.next_steps.includes('completed');
  if (j.awaiting_payment || onBoard) card.append(paymentForm(j, base, onBoard && !j.awaiting_payment));
  return card;
}

// The upcoming-jobs board: pre-booked jobs near the driver nobody holds yet, taken ahead.
let upcomingPage = 1;

function renderUpcoming(j: UpcomingJob): HTMLElement {
  const card = el('div', undefined, 'card upcoming');
  card.dataset.ref = j.booking_reference;
  card.append(el('h3', `${j.pickup_time_london}: ${j.pickup_area}`));
  const { facts, fact } = factList();
  fact('Pickup', j.pickup_time_london);
  fact('From', j.pickup_area);
  fact('To', j.dropoff_area);
  fact('Fare', fareText(j));
  fact('Distance', `${j.distance_miles.toFixed(1)} mi`);
  fact('Passengers', j.passengers);
  fact('Vehicle', vehicleNeeds(j.vehicle_type, j.wheelchair));
  if (j.meet_and_greet) fact('Meet and greet', MEET);
  for (const n of passengerNeeds(j)) fact(n.label, n.text);
  if (j.miles_from_you !== null) fact('From you now', `${j.miles_from_you.toFixed(1)} mi`);
  card.append(facts);
  const actions = el('div', undefined, 'actions');
  actions.append(
    action('Take this job', async () => {
      await api.send('POST', `/api/driver/upcoming/${encodeURIComponent(j.booking_reference)}/claim`);
      say(`Job ${j.booking_reference} is yours. The passenger has been told; confirm it on the day when asked.`, true);
      await refresh();
    }),
  );
  card.append(actions);
  return card;
}

function showUpcoming(board: { jobs: UpcomingJob[]; page: number; more: boolean }): void {
  $('upcoming').replaceChildren(...board.jobs.map(renderUpcoming));
  $('no-upcoming').hidden = board.jobs.length > 0;
  $('upcoming-prev').hidden = board.page <= 1;
  $('upcoming-next').hidden = !board.more;
  $('upcoming-pages').hidden = board.page <= 1 && !board.more;
}

function subscriptionText(sub: Me['subscription']): string {
  if (!sub) return 'Starts when you are approved';
  if (sub.state === 'trial') return `Free trial: ${sub.trial_days_remaining} days left`;
  return sub.state === 'active' ? '£20 in weeks you earn over £500; otherwise free' : 'Ended';
}

// Each week's charges line by line, and whether it is paid (with the link to pay it): docs/billing.md.
function invoiceRow(i: Invoice): HTMLElement {
  const tr = el('tr');
  const week = el('td', i.week_start.slice(0, 10));
  week.append(el('div', `earned ${pounds(i.earnings_pence)}`, 'hint'));
  tr.append(week);
  const charges = el('td');
  if (i.lines.length === 0) charges.textContent = 'None';
  for (const l of i.lines) charges.append(el('div', `${l.description}: ${pounds(l.amount_pence)}`));
  tr.append(charges, el('td', pounds(i.total_pence)));
  const pay = el('td', PAYMENT_WORDS[i.payment.status] ?? i.payment.status);
  const url = i.payment.pay_url;
  if (url && (url.startsWith('https://') || url.startsWith('http://'))) {
    const a = el('a', 'Pay now');
    a.href = url;
    a.rel = 'noopener';
    pay.append(' ', a);
  }
  tr.append(pay);
  return tr;
}

async function refresh(): Promise<void> {
  const [me, feed, board, bills] = await Promise.all([
    api.json<Me>('GET', '/api/driver/me'),
    api.json<{ jobs: Job[] }>('GET', '/api/public/v1/jobs'),
    api.json<{ jobs: UpcomingJob[]; page: number; more: boolean }>('GET', `/api/driver/upcoming?page=${upcomingPage}`),
    api.json<{ invoices: Invoice[] }>('GET', '/api/driver/invoices'),
  ]);
  showUpcoming(board);
  $('driver-name').textContent = me.driver.name;
  online = me.driver.online;
  receiving = me.receiving_jobs;
  showReceiving();
  const toggle = $button('online-toggle');
  toggle.textContent = online ? 'Go offline' : 'Go online';
  toggle.setAttribute('aria-pressed', String(online));
  if (online) startLocation();
  else stopLocation();
  $('jobs').replaceChildren(...feed.jobs.map(renderJob));
  $('no-jobs').hidden = feed.jobs.length > 0;
  $('rides').textContent = String(me.completed_rides);
  $('earnings').textContent = pounds(me.earnings_pence);
  $('dead-miles').textContent = `${me.dead_mileage_miles.toFixed(1)} mi`;
  $('weeks').textContent = `${me.paid_weeks} paid, ${me.free_weeks} free`;
  $('subscription').textContent = subscriptionText(me.subscription);
  const rows = bills.invoices.map(invoiceRow);
  $('invoices').replaceChildren(...rows);
  $('no-invoices').hidden = rows.length > 0;
  showMapKey(me.map_service);
}

const refreshPapers = driverPapers({ api, token: () => token, signedOut });
const showMapKey = driverMapKey({ api, refresh });

async function showApp(): Promise<void> {
  $('sign-in').hidden = true;
  $('app').hidden = false;
  await Promise.all([refresh(), refreshPapers()]);
}

$('phone-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  phone = $input('phone').value;
  api
    .send('POST', '/api/driver/sign-in', { phone })
    .then(() => {
      $('code-form').hidden = false;
      $input('code').focus();
      say('If this number belongs to an approved driver, a code is on its way by text.', true);
    })
    .catch(sayError);
});
$('code-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  api
    .json<{ token: string }>('POST', '/api/driver/sign-in/verify', { phone, code: $input('code').value })
    .then(async (r) => {
      token = r.token;
      localStorage.setItem(TOKEN, token);
      say('', true);
      await showApp();
    })
    .catch(sayError);
});
$('upcoming-prev').addEventListener('click', () => {
  upcomingPage = Math.max(1, upcomingPage - 1);
  refresh().catch(sayError);
});
$('upcoming-next').addEventListener('click', () => {
  upcomingPage += 1;
  refresh().catch(sayError);
});
$('online-toggle').addEventListener('click', () => {
  api.send('POST', '/api/driver/availability', { online: !online }).then(refresh).catch(sayError);
});
$('sign-out').addEventListener('click', () => {
  api
    .send('POST', '/api/driver/sign-out')
    .catch(() => undefined)
    .finally(signedOut);
});
if (token) showApp().catch(sayError);
setInterval(() => {
  if (token && !document.hidden) refresh().catch(() => undefined);
}, 5000);
