import { html } from './escape-html.js';
import { inlineAsset, layout, type Page } from './layout.js';

// The operator's dashboard: sign in with the operator bridge key (kept for this browser tab only),
// see a week of jobs from the bridge (a calendar of seven London days from today, or from a day
// picked, each job on its pickup day; and the same jobs by pickup time), and assign each to a
// driver of the operator's own fleet; answer drivers asking to join the fleet, and take drivers out
// of it. The page reads everything in one request (GET /api/operator/dashboard), repeated every
// 15 s while the tab is shown, and redraws only what changed; actions go through /api/operator.

const OPERATOR_SCRIPT = inlineAsset(`(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = 'directTaxiOperatorKey';
  const REFRESH_MS = 15000;
  let key = sessionStorage.getItem(KEY);
  let drivers = [];
  let driversSig = '';
  let looks = 0;
  const say = (text, ok) => { const m = $('message'); m.textContent = text; m.className = 'alert ' + (ok ? 'ok' : 'error'); m.hidden = !text; };
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  const api = async (method, path, body) => {
    const res = await fetch(path, { method, headers: Object.assign({ accept: 'application/json', authorization: 'Bearer ' + key }, body ? { 'content-type': 'application/json' } : {}), body: body ? JSON.stringify(body) : undefined });
    if (res.status === 401) { sessionStorage.removeItem(KEY); key = null; $('dashboard').hidden = true; $('sign-in').hidden = false; throw new Error('That operator key is not valid.'); }
    if (!res.ok) { const p = await res.json().catch(() => null); throw new Error((p && p.detail) || 'Something went wrong.'); }
    return res.status === 204 ? null : res.json();
  };
  // Only what changed is redrawn: an element whose data is as before is kept as it is (a driver
  // picked in a row's select stays picked).
  const patch = (box, items, keyOf, render, sigOf) => {
    const old = new Map([...box.children].map((c) => [c.dataset.key, c]));
    const next = items.map((x) => {
      const k = keyOf(x); const sig = sigOf(x); const o = old.get(k);
      if (o && o.dataset.sig === sig) return o;
      const n = render(x); n.dataset.key = k; n.dataset.sig = sig; return n;
    });
    if (next.length !== box.children.length || next.some((c, i) => box.children[i] !== c)) box.replaceChildren(...next);
  };
  const assignable = (j) => !j.driverId && !j.offeredTo && ['scheduled', 'unassigned'].includes(j.status);
  const whoFor = (j) => j.driverName ? j.driverName : j.offeredTo ? 'offered to ' + (drivers.find((d) => d.id === j.offeredTo) || { name: j.offeredTo }).name : '';
  const row = (j) => {
    const tr = el('tr'); tr.dataset.ref = j.ref;
    tr.append(el('td', j.dayLabel), el('td', j.pickupLocal), el('td', j.jobRef || j.ref), el('td', j.pickup + ' → ' + j.dropoff), el('td', j.passengerName + ', ' + j.passengers + ' pax, ' + j.vehicleType + (j.notes ? ' (' + j.notes + ')' : '')));
    const who = whoFor(j);
    tr.append(el('td', j.status.replace(/_/g, ' ') + (who ? ': ' + who : ''), 'job-status'));
    const cell = el('td');
    if (assignable(j)) {
      const id = 'driver-' + j.ref;
      const label = el('label', 'Driver for ' + (j.jobRef || j.ref), 'visually-hidden'); label.htmlFor = id;
      const pick = el('select'); pick.id = id;
      for (const d of drivers) { const o = el('option', d.name + (d.online ? '' : ' (offline)') + ', ' + d.vehicle); o.value = d.id; pick.append(o); }
      const b = el('button', 'Assign'); b.type = 'button';
      b.addEventListener('click', async () => {
        try { await api('POST', '/api/operator/jobs/' + encodeURIComponent(j.ref) + '/assign', { driverId: pick.value }); say('Job card sent for ' + (j.jobRef || j.ref) + '.', true); await load(); }
        catch (e) { say(e.message); }
      });
      cell.append(label, pick, b);
    }
    tr.append(cell);
    return tr;
  };
  // The week calendar: seven London days, each job on its pickup day by pickup time.
  const dayBox = (day) => {
    const box = el('section', undefined, day.today ? 'today' : undefined); box.dataset.day = day.date;
    const h = el('h3', day.label + (day.today ? ' (today)' : '')); h.id = 'day-' + day.date;
    box.setAttribute('aria-labelledby', h.id);
    box.append(h);
    if (day.jobs.length === 0) box.append(el('p', 'No jobs', 'hint'));
    else {
      const list = el('ul');
      for (const j of day.jobs) {
        const who = whoFor(j);
        const li = el('li', j.pickupLocal + ' ' + (j.jobRef || j.ref) + ', ' + j.status.replace(/_/g, ' ') + (who ? ': ' + who : ''), assignable(j) ? 'open' : j.driverId ? 'taken' : undefined);
        li.dataset.calendarRef = j.ref;
        list.append(li);
      }
      box.append(list);
    }
    return box;
  };
  const act = (text, cls, run) => {
    const b = el('button', text, cls); b.type = 'button';
    b.addEventListener('click', async () => { try { await run(); await load(); } catch (e) { say(e.message); } });
    return b;
  };
  const requestRow = (q) => {
    const tr = el('tr'); tr.dataset.request = q.id;
    tr.append(el('td', q.name + ', ' + q.phone), el('td', q.vehicle + (q.registration ? ' (' + q.registration + ')' : '') + ', ' + q.seats + ' seats'), el('td', q.driverStatus), el('td', q.requestedAt.slice(0, 10)));
    const cell = el('td');
    const answer = (decision) => api('POST', '/api/operator/fleet-requests/' + encodeURIComponent(q.id) + '/decision', { decision }).then(() => say(q.name + (decision === 'accept' ? ' joined your fleet.' : ' was refused.'), true));
    cell.append(act('Accept ' + q.name, undefined, () => answer('accept')), act('Refuse ' + q.name, 'decline', () => answer('refuse')));
    tr.append(cell);
    return tr;
  };
  const memberRow = (d) => {
    const tr = el('tr'); tr.dataset.driver = d.id;
    tr.append(el('td', d.name), el('td', d.vehicle + ', ' + d.plate), el('td', d.online ? 'online' : 'offline'));
    const cell = el('td');
    cell.append(act('Remove ' + d.name, 'decline', () => api('DELETE', '/api/operator/drivers/' + encodeURIComponent(d.id)).then(() => say(d.name + ' is no longer in your fleet.', true))));
    tr.append(cell);
    return tr;
  };
  // Everything on the page comes from this one request, which the page repeats to stay current.
  const load = async () => {
    const from = $('day').value;
    // Only the latest look is drawn: an earlier answer arriving late (another week picked) is dropped.
    const look = ++looks;
    const dash = await api('GET', '/api/operator/dashboard' + (from ? '?from=' + encodeURIComponent(from) : ''));
    if (look !== looks) return;
    drivers = dash.drivers;
    driversSig = JSON.stringify(drivers);
    $('operator-name').textContent = dash.operator;
    const labels = Object.fromEntries(dash.days.map((d) => [d.date, d.label]));
    const jobs = dash.jobs.map((j) => Object.assign({}, j, { dayLabel: labels[j.day] || j.day }));
    patch($('week'), dash.days.map((d) => Object.assign({}, d, { jobs: jobs.filter((j) => j.day === d.date) })), (d) => d.date, dayBox, (d) => JSON.stringify(d) + driversSig);
    patch($('jobs'), jobs, (j) => j.ref, row, (j) => JSON.stringify(j) + (assignable(j) || j.offeredTo ? driversSig : ''));
    $('none').hidden = jobs.length > 0;
    patch($('requests'), dash.requests, (q) => q.id, requestRow, (q) => JSON.stringify(q));
    $('no-requests').hidden = dash.requests.length > 0;
    patch($('members'), drivers, (d) => d.id, memberRow, (d) => JSON.stringify(d));
    $('no-members').hidden = drivers.length > 0;
    $('updated').textContent = 'Updated ' + new Date().toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' }) + ' (London); refreshed every ' + REFRESH_MS / 1000 + ' s.';
  };
  let timer = null;
  const refresh = () => {
    // Skipped while the tab is hidden or a driver is being picked; the next look catches up.
    const picking = document.activeElement && document.activeElement.tagName === 'SELECT' && $('jobs').contains(document.activeElement);
    if (!key || document.hidden || picking) return;
    load().catch((e) => say(e.message));
  };
  const show = async () => {
    $('sign-in').hidden = true; $('dashboard').hidden = false;
    await load();
    if (!timer) timer = setInterval(refresh, REFRESH_MS);
  };
  $('day').value = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  $('key-form').addEventListener('submit', async (ev) => {
    ev.preventDefault(); key = $('key').value.trim();
    try { await show(); sessionStorage.setItem(KEY, key); say('', true); } catch (e) { say(e.message); }
  });
  $('day').addEventListener('change', () => load().catch((e) => say(e.message)));
  $('refresh').addEventListener('click', () => load().catch((e) => say(e.message)));
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  if (key) show().catch((e) => say(e.message));
})();
`);

export function renderOperatorPage(): Page {
  const body = html`<h1>Operator dashboard</h1>
<p class="alert" id="message" role="status" aria-live="polite" hidden></p>
<section class="card" id="sign-in" aria-labelledby="sign-in-title">
<h2 id="sign-in-title">Sign in</h2>
<form id="key-form">
<label for="key">Operator bridge key</label>
<input id="key" name="key" type="password" autocomplete="off" required>
<button type="submit">Sign in</button>
</form>
</section>
<div id="dashboard" hidden>
<section aria-labelledby="week-title">
<h2 id="week-title">The week for <span id="operator-name"></span></h2>
<div class="toolbar">
<div><label for="day">Week from</label>
<input id="day" type="date"></div>
<button type="button" id="refresh" class="decline">Refresh</button>
</div>
<p class="hint" id="updated"></p>
<div class="table-scroll" role="region" aria-label="Week calendar: jobs by London pickup day" tabindex="0">
<div id="week" class="week"></div>
</div>
</section>
<section aria-labelledby="jobs-title">
<h2 id="jobs-title">Jobs this week</h2>
<div class="table-scroll" role="region" aria-labelledby="jobs-title" tabindex="0">
<table>
<caption class="visually-hidden">Jobs by pickup time (Europe/London)</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Pickup</th><th scope="col">Job</th><th scope="col">Route</th><th scope="col">Passenger</th><th scope="col">Status</th><th scope="col">Assign</th></tr></thead>
<tbody id="jobs"></tbody>
</table>
</div>
<p class="hint" id="none" hidden>No jobs these seven days.</p>
</section>
<section aria-labelledby="requests-title">
<h2 id="requests-title">Drivers asking to join your fleet</h2>
<p class="hint">Nobody is in your fleet, or can be given your jobs, until you accept them.</p>
<div class="table-scroll" role="region" aria-labelledby="requests-title" tabindex="0">
<table>
<caption class="visually-hidden">Requests to join, oldest first</caption>
<thead><tr><th scope="col">Driver</th><th scope="col">Vehicle</th><th scope="col">Status with us</th><th scope="col">Asked</th><th scope="col">Answer</th></tr></thead>
<tbody id="requests"></tbody>
</table>
</div>
<p class="hint" id="no-requests" hidden>No requests.</p>
</section>
<section aria-labelledby="members-title">
<h2 id="members-title">Your fleet</h2>
<div class="table-scroll" role="region" aria-labelledby="members-title" tabindex="0">
<table>
<caption class="visually-hidden">Drivers in your fleet</caption>
<thead><tr><th scope="col">Driver</th><th scope="col">Vehicle</th><th scope="col">Now</th><th scope="col">Remove</th></tr></thead>
<tbody id="members"></tbody>
</table>
</div>
<p class="hint" id="no-members" hidden>No drivers in your fleet yet.</p>
</section>
</div>`;
  return layout({ title: 'Operator dashboard', body, script: OPERATOR_SCRIPT, wide: true });
}
