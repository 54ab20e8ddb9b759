import { html } from './escape-html.js';
import { inlineAsset, layout, type Page } from './layout.js';
import { PAPERS_SCRIPT, papersSection } from './driver-papers.js';

// The driver app: a phone-sized page a driver uses one-handed in a car. Sign in with a texted code,
// go online (the browser's location then feeds dispatch), answer offers, drive the trip and
// confirm what was paid, and see earnings and the subscription. Everything goes through the same
// API a native app would call (src/routes/driver-app.ts); the session token stays on the phone.

const APP_SCRIPT = inlineAsset(`(() => {
  const $ = (id) => document.getElementById(id);
  const TOKEN = 'directTaxiDriverSession';
  let token = localStorage.getItem(TOKEN);
  let online = false;
  let watch = null;
  let lastSent = 0;
  let phone = '';
  const pounds = (p) => '£' + (p / 100).toFixed(2);
  const when = (iso) => new Date(iso).toLocaleString('en-GB', { timeZone: 'Europe/London', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  const STEP = { confirm: 'Confirm I am doing this job', en_route: 'On my way', arrived: 'Arrived at pickup', on_board: 'Passenger on board', completed: 'Trip completed', no_show: 'Passenger did not come' };
  const say = (text, ok) => { const m = $('message'); m.textContent = text; m.className = 'alert ' + (ok ? 'ok' : 'error'); m.hidden = !text; };
  const api = async (method, path, body) => {
    const res = await fetch(path, {
      method,
      headers: Object.assign({ accept: 'application/json' }, body ? { 'content-type': 'application/json' } : {}, token ? { authorization: 'Bearer ' + token } : {}),
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.status === 401 && token) { signedOut(); throw new Error('Your session has ended. Sign in again.'); }
    const reply = res.status === 204 ? null : await res.json().catch(() => null);
    if (!res.ok) throw new Error((reply && reply.detail) || 'Something went wrong. Please try again.');
    return reply;
  };
  const signedOut = () => { token = null; localStorage.removeItem(TOKEN); stopLocation(); $('app').hidden = true; $('sign-in').hidden = false; };
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  const button = (text, onClick, cls) => { const b = el('button', text, cls); b.type = 'button'; b.addEventListener('click', async () => { b.disabled = true; try { await onClick(); } catch (e) { say(e.message); } b.disabled = false; }); return b; };

  // Online means dispatchable: the position goes on a heartbeat even while the car stands still on
  // a rank (the browser reports a position only when it changes), and the driver is told plainly
  // when the phone cannot give one. Dispatch passes over a position older than 10 minutes.
  let lastFix = null;
  let locationProblem = '';
  const LOCATION_HEARTBEAT_MS = 60000;
  const postFix = () => api('POST', '/api/driver/location', lastFix).then(() => { lastSent = Date.now(); }, (e) => say(e.message));
  const sendLocation = (pos) => {
    lastFix = { lat: pos.coords.latitude, lon: pos.coords.longitude, accuracy_m: pos.coords.accuracy };
    locationProblem = '';
    if (Date.now() - lastSent < 10000) return;
    lastSent = Date.now();
    postFix();
  };
  const LOCATION_PROBLEMS = {
    1: 'Location is blocked for this page: allow it in your browser settings, or you get no jobs.',
    2: 'Your phone cannot find where it is just now (no GPS or network fix): you get no jobs until it can.',
    3: 'Your phone is taking too long to find where it is: you get no jobs until it can.',
  };
  const locationFailed = (err) => { locationProblem = LOCATION_PROBLEMS[err.code] || LOCATION_PROBLEMS[2]; showReceiving(); };
  const startLocation = () => {
    if (!navigator.geolocation) { locationProblem = 'This browser cannot share your location: use another browser to get jobs.'; return; }
    if (watch !== null) return;
    watch = navigator.geolocation.watchPosition(sendLocation, locationFailed, { enableHighAccuracy: true, maximumAge: 15000 });
  };
  // Checked every 5 s, not once a heartbeat: a timer a whole heartbeat long, started before the
  // first fix, could find the last send a moment too recent and skip a whole minute more.
  setInterval(() => { if (token && online && lastFix && !locationProblem && Date.now() - lastSent >= LOCATION_HEARTBEAT_MS) postFix(); }, 5000);
  let receiving = null;
  const showReceiving = () => {
    const r = receiving;
    const problem = online ? (locationProblem || (r && !r.yes ? r.message : '')) : '';
    $('online-state').textContent = !online ? 'You are offline' : problem ? 'You are online, but not getting jobs' : 'You are online and getting jobs';
    $('receiving').textContent = problem;
    $('receiving').hidden = !problem;
  };
  const stopLocation = () => { if (watch !== null) navigator.geolocation.clearWatch(watch); watch = null; };

  const renderJob = (j) => {
    const card = el('div', undefined, 'card job');
    card.dataset.ref = j.booking_reference;
    card.append(el('h2', (j.offer === 'offered' ? 'New job ' : 'Job ') + j.booking_reference));
    const facts = el('dl', undefined, 'facts');
    const fact = (k, v) => { if (v === null || v === undefined || v === '') return; facts.append(el('dt', k), el('dd', String(v))); };
    fact('Pickup', when(j.pickup_time));
    fact('From', j.pickup + (j.pickup_note ? ' (' + j.pickup_note + ')' : ''));
    fact('To', j.dropoff);
    fact('Passengers', j.passengers);
    fact('Vehicle', j.vehicle_type + (j.wheelchair ? ', wheelchair user' : ''));
    fact('Fare', pounds(j.fare_pence) + ' paid to you (' + j.payment_method.replace(/_/g, ' ') + ')' + (j.own_rate ? ', at your own approved rate' : ''));
    fact('Flight', j.flight_number);
    if (j.meet_and_greet) fact('Meet and greet', 'Meet the passenger inside arrivals with a name board');
    fact('Notes', j.notes);
    if (j.passenger) {
      facts.append(el('dt', 'Passenger'));
      const dd = el('dd', j.passenger.name + ', ');
      const a = el('a', j.passenger.phone); a.href = 'tel:' + j.passenger.phone;
      dd.append(a); facts.append(dd);
      fact('Trip', j.status.replace(/_/g, ' '));
    }
    card.append(facts);
    const base = '/api/driver/jobs/' + encodeURIComponent(j.offer_id);
    const actions = el('div', undefined, 'actions');
    if (j.offer === 'offered') {
      actions.append(
        button('Accept', async () => { await api('POST', base + '/respond', { decision: 'accept' }); say('Job accepted. It is yours.', true); await refresh(); }),
        button('Decline', async () => { await api('POST', base + '/respond', { decision: 'decline' }); await refresh(); }, 'decline'),
      );
    }
    for (const step of j.next_steps) {
      actions.append(button(STEP[step] || step, async () => { await api('POST', base + '/trip', { event: step }); await refresh(); }, step === 'no_show' ? 'decline' : undefined));
    }
    if (actions.childElementCount) card.append(actions);
    if (j.awaiting_payment) {
      const form = el('form', undefined, 'payment');
      const id = 'pay-' + j.booking_reference;
      const methodLabel = el('label', 'How did the passenger pay?'); methodLabel.htmlFor = id + '-method';
      const method = el('select'); method.id = id + '-method'; method.name = 'method';
      for (const [v, t] of [['cash', 'Cash'], ['card', 'Card reader'], ['payment_link', 'My payment link'], ['bank_transfer', 'Bank transfer'], ['account', 'Account']]) { const o = el('option', t); o.value = v; method.append(o); }
      const amountLabel = el('label', 'Amount received (£)'); amountLabel.htmlFor = id + '-amount';
      const amount = el('input'); amount.id = id + '-amount'; amount.type = 'number'; amount.step = '0.01'; amount.min = '0'; amount.inputMode = 'decimal'; amount.value = (j.fare_pence / 100).toFixed(2);
      const reasonLabel = el('label', 'If less than the fare, why'); reasonLabel.htmlFor = id + '-reason';
      const reason = el('input'); reason.id = id + '-reason'; reason.type = 'text'; reason.maxLength = 300; reason.autocomplete = 'off';
      const submit = el('button', 'Confirm payment'); submit.type = 'submit';
      form.append(el('h3', 'Payment received'), methodLabel, method, amountLabel, amount, reasonLabel, reason, submit);
      form.addEventListener('submit', async (ev) => {
        ev.preventDefault(); submit.disabled = true;
        try { await api('POST', base + '/payment', Object.assign({ method: method.value, amount: Number(amount.value) }, reason.value.trim() ? { reason: reason.value.trim() } : {})); say('Payment recorded. Thank you.', true); await refresh(); } catch (e) { say(e.message); }
        submit.disabled = false;
      });
      card.append(form);
    }
    return card;
  };

  // The upcoming-jobs board: pre-booked jobs near the driver nobody holds yet, taken ahead.
  let upcomingPage = 1;
  const renderUpcoming = (j) => {
    const card = el('div', undefined, 'card upcoming');
    card.dataset.ref = j.booking_reference;
    card.append(el('h3', j.pickup_time_london + ': ' + j.pickup_area));
    const facts = el('dl', undefined, 'facts');
    const fact = (k, v) => { if (v === null || v === undefined || v === '') return; facts.append(el('dt', k), el('dd', String(v))); };
    fact('Pickup', j.pickup_time_london);
    fact('From', j.pickup_area);
    fact('To', j.dropoff_area);
    fact('Fare', pounds(j.fare_pence) + ' paid to you (' + j.payment_method.replace(/_/g, ' ') + ')' + (j.own_rate ? ', at your own approved rate' : ''));
    fact('Distance', j.distance_miles.toFixed(1) + ' mi');
    fact('Passengers', j.passengers);
    fact('Vehicle', j.vehicle_type + (j.wheelchair ? ', wheelchair user' : ''));
    if (j.meet_and_greet) fact('Meet and greet', 'Meet the passenger inside arrivals with a name board');
    if (j.miles_from_you !== null) fact('From you now', j.miles_from_you.toFixed(1) + ' mi');
    card.append(facts);
    const actions = el('div', undefined, 'actions');
    actions.append(button('Take this job', async () => {
      await api('POST', '/api/driver/upcoming/' + encodeURIComponent(j.booking_reference) + '/claim');
      say('Job ' + j.booking_reference + ' is yours. The passenger has been told; confirm it on the day when asked.', true);
      await refresh();
    }));
    card.append(actions);
    return card;
  };
  const showUpcoming = (board) => {
    $('upcoming').replaceChildren(...board.jobs.map(renderUpcoming));
    $('no-upcoming').hidden = board.jobs.length > 0;
    $('upcoming-prev').hidden = board.page <= 1;
    $('upcoming-next').hidden = !board.more;
    $('upcoming-pages').hidden = board.page <= 1 && !board.more;
  };

  const refresh = async () => {
    const [me, feed, board, bills] = await Promise.all([api('GET', '/api/driver/me'), api('GET', '/api/public/v1/jobs'), api('GET', '/api/driver/upcoming?page=' + upcomingPage), api('GET', '/api/driver/invoices')]);
    showUpcoming(board);
    $('driver-name').textContent = me.driver.name;
    online = me.driver.online;
    receiving = me.receiving_jobs;
    showReceiving();
    $('online-toggle').textContent = online ? 'Go offline' : 'Go online';
    $('online-toggle').setAttribute('aria-pressed', String(online));
    if (online) startLocation(); else stopLocation();
    const jobs = $('jobs');
    jobs.replaceChildren(...feed.jobs.map(renderJob));
    $('no-jobs').hidden = feed.jobs.length > 0;
    $('rides').textContent = String(me.completed_rides);
    $('earnings').textContent = pounds(me.earnings_pence);
    $('dead-miles').textContent = me.dead_mileage_miles.toFixed(1) + ' mi';
    $('weeks').textContent = me.paid_weeks + ' paid, ' + me.free_weeks + ' free';
    const sub = me.subscription;
    $('subscription').textContent = !sub ? 'Starts when you are approved' : sub.state === 'trial' ? 'Free trial: ' + sub.trial_days_remaining + ' days left' : sub.state === 'active' ? '£20 in weeks you earn over £500; otherwise free' : 'Ended';
    // Each week's charges line by line, and whether it is paid (with the link to pay it): docs/billing.md.
    const paymentWords = { paid: 'Paid', unpaid: 'Unpaid', overdue: 'Overdue', nothing_due: 'Nothing due', below_minimum: 'Under 30p: not collected', not_collected: 'Not collected' };
    const rows = bills.invoices.map((i) => {
      const tr = el('tr');
      const week = el('td', i.week_start.slice(0, 10));
      week.append(el('div', 'earned ' + pounds(i.earnings_pence), 'hint'));
      tr.append(week);
      const charges = el('td');
      if (i.lines.length === 0) charges.textContent = 'None';
      for (const l of i.lines) charges.append(el('div', l.description + ': ' + pounds(l.amount_pence)));
      tr.append(charges, el('td', pounds(i.total_pence)));
      const pay = el('td', paymentWords[i.payment.status] ?? i.payment.status);
      if (i.payment.pay_url && (i.payment.pay_url.startsWith('https://') || i.payment.pay_url.startsWith('http://'))) { const a = el('a', 'Pay now'); a.href = i.payment.pay_url; a.rel = 'noopener'; pay.append(' ', a); }
      tr.append(pay);
      return tr;
    });
    $('invoices').replaceChildren(...rows);
    $('no-invoices').hidden = rows.length > 0;
  };

${PAPERS_SCRIPT}
  const showApp = async () => { $('sign-in').hidden = true; $('app').hidden = false; await Promise.all([refresh(), refreshPapers()]); };

  $('phone-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    phone = $('phone').value;
    try { await api('POST', '/api/driver/sign-in', { phone }); $('code-form').hidden = false; $('code').focus(); say('If this number belongs to an approved driver, a code is on its way by text.', true); } catch (e) { say(e.message); }
  });
  $('code-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const r = await api('POST', '/api/driver/sign-in/verify', { phone, code: $('code').value });
      token = r.token; localStorage.setItem(TOKEN, token); say('', true); await showApp();
    } catch (e) { say(e.message); }
  });
  $('upcoming-prev').addEventListener('click', async () => { upcomingPage = Math.max(1, upcomingPage - 1); try { await refresh(); } catch (e) { say(e.message); } });
  $('upcoming-next').addEventListener('click', async () => { upcomingPage += 1; try { await refresh(); } catch (e) { say(e.message); } });
  $('online-toggle').addEventListener('click', async () => {
    try { await api('POST', '/api/driver/availability', { online: !online }); await refresh(); } catch (e) { say(e.message); }
  });
  $('sign-out').addEventListener('click', async () => { try { await api('POST', '/api/driver/sign-out'); } catch {} signedOut(); });
  if (token) showApp().catch((e) => say(e.message));
  setInterval(() => { if (token && !document.hidden) refresh().catch(() => {}); }, 5000);
})();
`);

export function renderDriverAppPage(): Page {
  const body = html`<h1>Driver</h1>
<p class="alert" id="message" role="status" aria-live="polite" hidden></p>
<section class="card" id="sign-in" aria-labelledby="sign-in-title">
<h2 id="sign-in-title">Sign in</h2>
<form id="phone-form">
<label for="phone">Your phone number</label>
<input id="phone" name="phone" type="tel" autocomplete="tel" placeholder="07400 123456" required>
<button type="submit">Text me a code</button>
</form>
<form id="code-form" hidden>
<label for="code">The 6-digit code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">Sign in</button>
</form>
<p class="hint">Not driving with us yet? <a href="/drivers/apply">Apply to drive</a>.</p>
</section>
<div id="app" hidden>
<section class="card toggle" aria-label="Availability">
<div><strong id="driver-name"></strong><br><span id="online-state">You are offline</span></div>
<button type="button" id="online-toggle" aria-pressed="false">Go online</button>
</section>
<p class="alert error" id="receiving" role="status" aria-live="polite" hidden></p>
<section aria-labelledby="jobs-title">
<h2 id="jobs-title">Jobs</h2>
<p class="hint" id="no-jobs">No jobs right now. Stay online and new offers appear here.</p>
<div id="jobs"></div>
</section>
<section aria-labelledby="upcoming-title">
<h2 id="upcoming-title">Upcoming jobs you can take</h2>
<p class="hint">Pre-booked jobs near you that nobody has yet. Take one and it is yours: you confirm it on the day. The address shows once it is yours.</p>
<p class="hint" id="no-upcoming">No upcoming jobs near you just now.</p>
<div id="upcoming"></div>
<div class="actions" id="upcoming-pages" hidden><button type="button" id="upcoming-prev" hidden>Earlier jobs</button><button type="button" id="upcoming-next" hidden>Later jobs</button></div>
</section>
<section class="card" aria-labelledby="earnings-title">
<h2 id="earnings-title">Your earnings</h2>
<dl class="facts">
<dt>Completed rides</dt><dd id="rides">0</dd>
<dt>Earnings</dt><dd id="earnings">£0.00</dd>
<dt>Dead mileage</dt><dd id="dead-miles">0.0 mi</dd>
<dt>Weeks</dt><dd id="weeks"></dd>
<dt>Subscription</dt><dd id="subscription"></dd>
</dl>
<p class="hint">No commission: every fare is yours. The subscription is £20 in weeks you earn over £500, otherwise free, plus 2p per text sent for you.</p>
<h3>Invoices</h3>
<p class="hint" id="no-invoices">No invoices yet.</p>
<div class="table-scroll"><table><thead><tr><th scope="col">Week</th><th scope="col">Charges</th><th scope="col">Total</th><th scope="col">Payment</th></tr></thead><tbody id="invoices"></tbody></table></div>
</section>
${papersSection}
<button type="button" class="decline" id="sign-out">Sign out</button>
</div>`;
  return layout({ title: 'Driver', body, script: APP_SCRIPT });
}
