import { html } from './escape-html.js';
import { inlineAsset, layout, type Page } from './layout.js';
import { staffSignIn } from './ops-page.js';

// The ops view's page (/ops/bookings): live bookings, those without a driver near pickup first; a
// booking's whole story from its reference; its decision log with a driver filter that says why a
// driver was not offered the job. Signs in with the same staff key as /ops (kept for this tab).
// Everything comes from /api/ops/bookings...; times are shown in Europe/London. The board comes a
// page at a time (50), searched by reference, passenger phone or a partner's jobRef, each look one
// request, refreshed every 30 s while the tab is shown.

const SCRIPT = inlineAsset(`(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = 'directTaxiStaffKey';
  const REFRESH_MS = 30000;
  let key = sessionStorage.getItem(KEY);
  const say = (text, ok) => { const m = $('message'); m.textContent = text; m.className = 'alert ' + (ok ? 'ok' : 'error'); m.hidden = !text; };
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined && text !== null) e.textContent = String(text); if (cls) e.className = cls; return e; };
  const london = (iso) => iso ? new Date(iso).toLocaleString('en-GB', { timeZone: 'Europe/London', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit' }) : '—';
  const pounds = (p) => '£' + (p / 100).toFixed(2);
  const words = (s) => s ? String(s).replace(/_/g, ' ') : '—';
  const api = async (path) => {
    const res = await fetch(path, { headers: { accept: 'application/json', authorization: 'Bearer ' + key } });
    if (res.status === 401) { sessionStorage.removeItem(KEY); key = null; $('console').hidden = true; $('sign-in').hidden = false; throw new Error('That staff key is not valid.'); }
    if (!res.ok) { const p = await res.json().catch(() => null); throw new Error((p && p.detail) || 'Something went wrong.'); }
    return res.json();
  };
  const post = async (path, body) => {
    const res = await fetch(path, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json', authorization: 'Bearer ' + key }, body: JSON.stringify(body) });
    const reply = await res.json().catch(() => null);
    if (!res.ok) throw new Error((reply && reply.detail) || 'Something went wrong.');
    return reply;
  };
  // Staff act on the booking opened: each with a reason, recorded, refused with the service's reason.
  const actionForm = (label, what, path) => {
    const form = el('form', undefined, 'toolbar');
    const id = 'act-' + path;
    const l = el('label', 'Reason (recorded)'); l.htmlFor = id;
    const reason = el('input'); reason.id = id; reason.type = 'text'; reason.maxLength = 300; reason.required = true; reason.autocomplete = 'off';
    const wrap = el('div'); wrap.append(l, reason);
    const b = el('button', label, path === 'cancel' ? 'decline' : undefined); b.type = 'submit';
    form.append(wrap, b);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault(); b.disabled = true;
      try { await post('/api/ops/bookings/' + encodeURIComponent(current) + '/' + path, { reason: reason.value.trim() }); await openStory(current); say(what + ' ' + current + '.', true); } catch (e) { say(e.message); }
      b.disabled = false;
    });
    return form;
  };
  // Nobody holds it: offer it to a driver staff name (their id, from the drivers console).
  const offerForm = () => {
    const form = el('form', undefined, 'toolbar');
    const add = (id, label) => { const wrap = el('div'); const l = el('label', label); l.htmlFor = id; const i = el('input'); i.id = id; i.type = 'text'; i.required = true; i.autocomplete = 'off'; i.spellcheck = false; wrap.append(l, i); form.append(wrap); return i; };
    const driver = add('offer-driver', 'Driver id');
    const reason = add('offer-reason', 'Reason (recorded)');
    const go = el('button', 'Offer to this driver'); go.type = 'submit'; form.append(go);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault(); go.disabled = true;
      try { const r = await post('/api/ops/bookings/' + encodeURIComponent(current) + '/offer', { driver_id: driver.value.trim(), reason: reason.value.trim() }); await openStory(current); say('Offered ' + current + ' to ' + r.offered_to + '.', true); } catch (e) { say(e.message); }
      go.disabled = false;
    });
    return form;
  };
  // A new time, pickup or drop-off: only what is typed changes.
  const amendForm = (b) => {
    const form = el('form', undefined, 'toolbar');
    const field = (id, label, type, value) => {
      const wrap = el('div'); const l = el('label', label); l.htmlFor = id;
      const input = el('input'); input.id = id; input.type = type; input.autocomplete = 'off'; if (value) input.placeholder = value;
      wrap.append(l, input); form.append(wrap); return input;
    };
    const pickup = field('amend-pickup', 'New pickup', 'text', b.pickup);
    const dropoff = field('amend-dropoff', 'New drop-off', 'text', b.dropoff);
    const when = field('amend-when', 'New pickup time (London)', 'datetime-local', '');
    const reason = field('amend-reason', 'Reason (recorded)', 'text', '');
    reason.required = true; reason.maxLength = 300;
    const go = el('button', 'Change the booking'); go.type = 'submit'; form.append(go);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault(); go.disabled = true;
      const body = { reason: reason.value.trim() };
      if (pickup.value.trim()) body.pickup = pickup.value.trim();
      if (dropoff.value.trim()) body.dropoff = dropoff.value.trim();
      // datetime-local is London wall time: sent as an instant with London's offset on that date.
      if (when.value) body.pickup_at = londonInstant(when.value);
      try { await post('/api/ops/bookings/' + encodeURIComponent(current) + '/amend', body); await openStory(current); say('Changed ' + current + '.', true); } catch (e) { say(e.message); }
      go.disabled = false;
    });
    return form;
  };
  const londonInstant = (local) => {
    const guess = new Date(local + 'Z');
    const inLondon = new Date(guess.toLocaleString('en-US', { timeZone: 'Europe/London' }));
    const inUtc = new Date(guess.toLocaleString('en-US', { timeZone: 'UTC' }));
    return new Date(guess.getTime() - (inLondon.getTime() - inUtc.getTime())).toISOString();
  };
  const table = (caption, head, rows) => {
    // Focusable and named, so a keyboard can scroll a wide table on a phone.
    const wrap = el('div', undefined, 'table-scroll'); wrap.tabIndex = 0; wrap.setAttribute('role', 'region'); wrap.setAttribute('aria-label', caption);
    const t = el('table'); t.append(el('caption', caption, 'visually-hidden'));
    const tr = el('tr'); for (const h of head) { const th = el('th', h); th.scope = 'col'; tr.append(th); }
    const thead = el('thead'); thead.append(tr);
    const tbody = el('tbody');
    for (const r of rows) { const row = el('tr'); for (const c of r) { const td = el('td'); if (c instanceof Node) td.append(c); else td.textContent = c === null || c === undefined ? '—' : String(c); row.append(td); } tbody.append(row); }
    t.append(thead, tbody); wrap.append(t); return wrap;
  };
  const workflowLink = (b) => { const a = el('a', 'Workflow history'); a.href = b.links.workflow; a.target = '_blank'; a.rel = 'noopener noreferrer'; return a; };
  let current = null;
  const params = new URLSearchParams(location.search);
  const view = { status: params.get('status') || '', q: params.get('q') || '', offset: Math.max(0, Number(params.get('offset')) || 0) };
  let board = null;
  let looks = 0;
  let boardSig = '';
  // The page's place is in its address (a reload opens where it was): the board's search, status and
  // page, and the booking open.
  const syncUrl = () => {
    const q = new URLSearchParams();
    if (view.status) q.set('status', view.status);
    if (view.q) q.set('q', view.q);
    if (view.offset) q.set('offset', String(view.offset));
    if (current) q.set('ref', current);
    history.replaceState(null, '', '/ops/bookings' + (q.toString() ? '?' + q : ''));
  };
  const openButton = (ref) => { const b = el('button', ref, 'decline'); b.type = 'button'; b.dataset.ref = ref; b.addEventListener('click', () => openStory(ref).catch((e) => say(e.message))); return b; };
  const loadBoard = async () => {
    const q = new URLSearchParams();
    if (view.status) q.set('status', view.status);
    if (view.q) q.set('q', view.q);
    if (view.offset) q.set('offset', String(view.offset));
    // Only the latest look is drawn: an earlier answer arriving late is dropped.
    const look = ++looks;
    const answer = await api('/api/ops/bookings' + (q.toString() ? '?' + q : ''));
    if (look !== looks) return;
    board = answer;
    syncUrl();
    $('counts').textContent = Object.entries(board.counts).map(([k, v]) => words(k) + ': ' + v).join(', ') || 'No live bookings.';
    $('alert-minutes').textContent = String(board.alert_minutes);
    const first = board.total === 0 ? 0 : board.offset + 1;
    $('board-count').textContent = board.q
      ? (board.total === 0 ? 'No booking matches “' + board.q + '”.' : 'Bookings matching “' + board.q + '”, open or closed, latest pickup first: ' + first + '–' + (board.offset + board.bookings.length) + ' of ' + board.total + '.')
      : (board.total === 0 ? '' : 'Showing ' + first + '–' + (board.offset + board.bookings.length) + ' of ' + board.total + '.');
    $('board-pager').hidden = board.total <= board.limit && board.offset === 0;
    $('board-prev').disabled = board.previous_offset === null;
    $('board-next').disabled = board.next_offset === null;
    $('board-page').textContent = 'Page ' + (Math.floor(board.offset / board.limit) + 1) + ' of ' + Math.max(1, Math.ceil(board.total / board.limit));
    // Redrawn only when something on it changed (minutes to pickup count as a change).
    const sig = JSON.stringify(board.bookings);
    if (sig === boardSig) return;
    boardSig = sig;
    const rows = board.bookings.map((b) => [
      openButton(b.ref), words(b.status), b.pickup_at_london,
      b.minutes_to_pickup + ' min', b.driver ? (b.driver.name || b.driver.id) : (b.without_driver ? 'No driver' : '—'),
      b.alerted_at ? 'Alerted ' + london(b.alerted_at) : '', workflowLink(b),
    ]);
    $('board').replaceChildren(table(board.q ? 'Bookings found' : 'Live bookings, those without a driver first', ['Booking', 'Status', 'Pickup (London)', 'In', 'Driver', 'Ops alert', 'Temporal'], rows));
  };
  const turn = (offset) => { if (offset === null || offset === undefined) return; view.offset = offset; loadBoard().then(() => $('board-title').focus()).catch((e) => say(e.message)); };
  const section = (title, ...children) => { const s = el('section', undefined, 'card'); s.append(el('h3', title), ...children); return s; };
  const renderDecisions = (log) => {
    const out = [];
    if (log.driver) {
      const p = el('p', log.driver.explanation, 'alert ' + (log.driver.considered ? 'ok' : 'error')); p.id = 'driver-answer';
      const n = log.driver.now;
      const facts = el('p', 'Now: ' + n.name + ' (' + n.id + '), ' + n.tier + ' tier, ' + n.status + ', ' + (n.online ? 'online' : 'offline') +
        (n.location_age_seconds === null ? ', no position on record' : ', position ' + Math.round(n.location_age_seconds / 60) + ' min old, ' + (n.distance_now_m / 1000).toFixed(1) + ' km from the pickup') +
        (n.tier_reach_m ? ' (the tier reads drivers within ' + n.tier_reach_m / 1000 + ' km).' : '.'), 'hint');
      out.push(p, facts);
    }
    out.push(table('Dispatch decisions', ['Round', 'Tier', 'Driver', 'Distance', 'Decision', 'At (London)'], log.decisions.map((d) => [
      d.round, d.tier, (d.driver_name || '') + ' (' + d.driver_id + ')', d.distance_m === null ? 'no position' : (d.distance_m / 1000).toFixed(1) + ' km',
      d.eligible ? 'eligible' : 'skipped: ' + words(d.skip_reason), london(d.decided_at),
    ])));
    if (log.truncated) out.push(el('p', 'Only the first decisions are listed: filter by driver.', 'hint'));
    out.push(el('h4', 'Offers'), table('Offers', ['Round', 'Driver', 'Outcome', 'Offered', 'Answered'], log.offers.map((o) => [o.round, (o.driver_name || '') + ' (' + o.driver_id + ')', words(o.status) + (o.claimed_from_board ? ' (claimed from the board)' : ''), london(o.offered_at), london(o.responded_at)])));
    $('decisions').replaceChildren(...out);
  };
  const loadDecisions = async () => {
    const driver = $('driver-filter').value.trim();
    renderDecisions(await api('/api/ops/bookings/' + encodeURIComponent(current) + '/decisions' + (driver ? '?driver_id=' + encodeURIComponent(driver) : '')));
  };
  // A late answer to an older look never replaces a newer one (nor the form being typed in it).
  let storySeq = 0;
  const openStory = async (ref) => {
    const seq = ++storySeq;
    const story = await api('/api/ops/bookings/' + encodeURIComponent(ref));
    if (seq !== storySeq) return;
    current = story.booking.ref;
    const b = story.booking;
    $('story-title').textContent = 'Booking ' + b.ref + ': ' + words(b.status);
    const facts = el('dl', undefined, 'facts');
    for (const [k, v] of [['Pickup', b.pickup_at_london + ', ' + b.pickup], ['Drop-off', b.dropoff], ['Passenger', b.passenger.name + ', ' + b.passenger.phone + (b.passenger.email ? ', ' + b.passenger.email : '')], ['Trip', b.passengers + ' passengers, ' + words(b.vehicle_type) + (b.wheelchair ? ', wheelchair' : '')], ['Fare', pounds(b.fare_pence) + ', ' + words(b.payment_method)], ['Driver', b.driver ? (b.driver.name || '') + ' (' + b.driver.id + ')' : 'none'], ['Source', words(b.source) + (b.partner ? ', partner ' + b.partner.id + (b.partner.job_ref ? ' job ' + b.partner.job_ref : '') : '')], ['Ops alert', b.alerted_at ? london(b.alerted_at) : 'none']]) {
      facts.append(el('dt', k), el('dd', v));
    }
    const wl = el('p'); wl.append(workflowLink(b));
    $('story-body').replaceChildren(
      facts, wl,
      section('Status changes', table('Status changes', ['At (London)', 'From', 'To', 'Driver'], story.status_changes.map((c) => [c.at_london, words(c.previous_status), words(c.status), c.driver_id]))),
      section('Dispatch rounds', table('Dispatch rounds', ['Round', 'Tier', 'Drivers read', 'Eligible', 'At (London)'], story.rounds.map((r) => [r.round, r.tier, r.considered, r.eligible, london(r.at)]))),
      section('Messages sent', table('Messages sent', ['Created (London)', 'Channel', 'To', 'What', 'Sent'], story.messages.map((m) => [london(m.created_at), m.channel, m.to, m.subject || m.key.split(':')[0], m.sent_at ? london(m.sent_at) : m.withheld ? 'held back: ' + m.withheld.split('_').join(' ') : 'not sent']))),
      section('Payment records', table('Payment records', ['Recorded (London)', 'Amount', 'Method', 'By', 'Corrects'], story.payments.map((p) => [london(p.recorded_at), pounds(p.amount_pence), words(p.method), p.recorded_by, p.corrects]))),
      section('Staff actions', table('Staff actions', ['At (London)', 'Action', 'By', 'Reason'], story.staff_actions.map((a) => [london(a.at), words(a.action.replace('booking.', '')), a.by, a.reason]))),
    );
    const live = !['completed', 'cancelled', 'no_show', 'on_board'].includes(b.status);
    if (live) {
      const acts = [];
      if (b.driver && ['assigned', 'en_route', 'arrived'].includes(b.status)) acts.push(actionForm('Take the job off this driver', 'Released the driver of', 'release'));
      if (!b.driver) acts.push(offerForm());
      if (!['en_route', 'arrived'].includes(b.status)) acts.push(amendForm(b));
      acts.push(actionForm('Cancel this booking', 'Cancelled', 'cancel'));
      $('story-body').append(section('Act on this booking', ...acts));
    }
    $('story').hidden = false;
    $('ref').value = current;
    syncUrl();
    await loadDecisions();
    $('story-title').focus();
  };
  let timer = null;
  const refresh = () => { if (key && !document.hidden) loadBoard().catch((e) => say(e.message)); };
  const show = async () => {
    $('sign-in').hidden = true; $('console').hidden = false;
    $('status').value = view.status; $('board-q').value = view.q;
    await loadBoard();
    const ref = params.get('ref');
    if (ref) await openStory(ref);
    // The board keeps itself current: one request a look, every 30 s while the tab is shown.
    if (!timer) timer = setInterval(refresh, REFRESH_MS);
  };
  $('key-form').addEventListener('submit', async (ev) => {
    ev.preventDefault(); key = $('key').value.trim();
    try { await show(); sessionStorage.setItem(KEY, key); say('', true); } catch (e) { say(e.message); }
  });
  $('status').addEventListener('change', () => { view.status = $('status').value; view.offset = 0; loadBoard().catch((e) => say(e.message)); });
  $('board-search').addEventListener('submit', (ev) => { ev.preventDefault(); view.status = $('status').value; view.q = $('board-q').value.trim(); view.offset = 0; loadBoard().then(() => say('', true)).catch((e) => say(e.message)); });
  $('refresh').addEventListener('click', () => loadBoard().then(() => say('', true)).catch((e) => say(e.message)));
  $('board-prev').addEventListener('click', () => turn(board && board.previous_offset));
  $('board-next').addEventListener('click', () => turn(board && board.next_offset));
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  $('find-form').addEventListener('submit', (ev) => { ev.preventDefault(); say('', true); openStory($('ref').value.trim().toUpperCase()).catch((e) => say(e.message)); });
  $('driver-form').addEventListener('submit', (ev) => { ev.preventDefault(); loadDecisions().then(() => say('', true)).catch((e) => say(e.message)); });
  if (key) show().catch((e) => say(e.message));
})();
`);

const STATUSES = [
  'awaiting_confirmation',
  'scheduled',
  'dispatching',
  'offered',
  'unassigned',
  'assigned',
  'en_route',
  'arrived',
  'on_board',
];

export function renderOpsBookingsPage(): Page {
  const body = html`<h1>Live bookings</h1>
<p><a href="/ops">Drivers and passengers</a></p>
${staffSignIn}
<div id="console" hidden>
<section class="card" aria-labelledby="find-title">
<h2 id="find-title">Find a booking</h2>
<form id="find-form" class="toolbar">
<div><label for="ref">Booking reference</label>
<input id="ref" type="text" required maxlength="12" pattern="[A-Za-z0-9]{10,12}" autocomplete="off" spellcheck="false"></div>
<button type="submit">Show its story</button>
</form>
</section>
<section aria-labelledby="board-title">
<h2 id="board-title" tabindex="-1">Now and next</h2>
<p class="hint">Bookings without a driver come first, nearest pickup first; ops are emailed when one has no driver <span id="alert-minutes"></span> minutes before pickup. Times are London time. A search finds any booking, open or closed.</p>
<p id="counts"></p>
<form id="board-search" class="toolbar" role="search" aria-label="Bookings">
<div><label for="status">Show</label>
<select id="status"><option value="">Every live status</option>${STATUSES.map((s) => html`<option value="${s}">${s.replace(/_/g, ' ')}</option>`)}</select></div>
<div><label for="board-q">Reference, passenger phone or job reference</label>
<input id="board-q" type="search" maxlength="64" autocomplete="off" spellcheck="false" placeholder="TX…, 07400 123456, a partner’s jobRef"></div>
<button type="submit">Search</button>
<button type="button" id="refresh" class="decline">Refresh</button>
</form>
<p class="hint" id="board-count" role="status" aria-live="polite"></p>
<div id="board"></div>
<nav class="pager" id="board-pager" aria-label="Pages of bookings" hidden>
<button type="button" id="board-prev" class="decline">Previous page</button>
<span id="board-page"></span>
<button type="button" id="board-next" class="decline">Next page</button>
</nav>
</section>
<section class="card" id="story" aria-labelledby="story-title" hidden>
<h2 id="story-title" tabindex="-1">Booking</h2>
<div id="story-body"></div>
<h3>Why was a driver (not) offered this job?</h3>
<form id="driver-form" class="toolbar">
<div><label for="driver-filter">Driver id (empty: every decision)</label>
<input id="driver-filter" type="text" maxlength="60" autocomplete="off" spellcheck="false"></div>
<button type="submit">Show decisions</button>
</form>
<div id="decisions"></div>
</section>
</div>`;
  return layout({ title: 'Live bookings', body, script: SCRIPT, wide: true });
}
