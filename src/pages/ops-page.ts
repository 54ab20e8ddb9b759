import { html } from './escape-html.js';
import { inlineAsset, layout, type Page } from './layout.js';
import { OPS_CHANGES_SCRIPT, opsChangesSection } from './ops-driver-changes.js';

// The operators' page: sign in with a staff key (kept for this browser tab only), review
// applicants and their documents and the fleet they ask to join, approve or reject, suspend or
// reinstate, block a passenger and, for admins, extend a trial. Every action goes through /api/ops
// and is recorded with who and why. Drivers come a page at a time (50), searched by name or phone,
// each page in one request (GET /api/ops/drivers), refreshed every 30 s while the tab is shown; the
// page's place (status, search, page) is in its address, so a reload opens where it was.

const OPS_SCRIPT = inlineAsset(`(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = 'directTaxiStaffKey';
  const REFRESH_MS = 30000;
  let key = sessionStorage.getItem(KEY);
  const params = new URLSearchParams(location.search);
  const view = { status: params.has('status') ? params.get('status') : 'applicant', q: params.get('q') || '', offset: Math.max(0, Number(params.get('offset')) || 0) };
  let page = null;
  let looks = 0;
  const say = (text, ok) => { const m = $('message'); m.textContent = text; m.className = 'alert ' + (ok ? 'ok' : 'error'); m.hidden = !text; };
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  const api = async (method, path, body) => {
    const res = await fetch(path, { method, headers: Object.assign({ accept: 'application/json', authorization: 'Bearer ' + key }, body ? { 'content-type': 'application/json' } : {}), body: body ? JSON.stringify(body) : undefined });
    if (res.status === 401) { sessionStorage.removeItem(KEY); key = null; $('console').hidden = true; $('sign-in').hidden = false; throw new Error('That staff key is not valid.'); }
    if (!res.ok) { const p = await res.json().catch(() => null); throw new Error((p && p.detail) || 'Something went wrong.'); }
    return res;
  };
  const download = async (driverId, doc) => {
    const res = await api('GET', '/api/ops/drivers/' + encodeURIComponent(driverId) + '/documents/' + doc.id);
    const a = el('a'); a.href = URL.createObjectURL(await res.blob()); a.download = driverId + '-' + doc.kind; a.click();
  };
  const decide = async (driverId, action, reasonInput, grantFleet) => {
    try {
      const grant = action === 'approve' && grantFleet && grantFleet.checked ? grantFleet.value : null;
      await api('POST', '/api/ops/drivers/' + encodeURIComponent(driverId) + '/decision', { action, reason: reasonInput.value.trim() || null, grant_fleet_id: grant });
      say('Driver ' + driverId + ': ' + action + ' recorded.', true);
      await load();
    } catch (e) { say(e.message); }
  };
  // One driver's card, from the list's own answer: the list brings each driver's documents,
  // staff actions and fleet history, so a page of drivers is one request.
  const driverCard = (d) => {
    const card = el('article', undefined, 'card');
    card.dataset.driver = d.id;
    card.append(el('h3', d.name + ' (' + d.status + ')'));
    const facts = el('dl', undefined, 'facts');
    for (const [k, v] of [['Phone', d.phone], ['Email', d.email], ['Authority', d.licensing_authority], ['Driver licence', d.driver_licence_number + ', expires ' + d.driver_licence_expires], ['Vehicle licence', d.vehicle_licence_number + ', expires ' + d.vehicle_licence_expires], ['Vehicle', d.vehicle + ', ' + d.vehicle_registration + ', ' + d.seats + ' seats' + (d.wheelchair_accessible ? ', wheelchair accessible' : '')], ['Tier', d.tier + (d.home_area ? ', ' + d.home_area : '')], ['Fleet', d.fleet_id], ['Asks to join fleet', d.requested_fleet_id ? d.requested_fleet_id + ' (not a member until its operator accepts, or you grant it below)' : null]]) {
      facts.append(el('dt', k), el('dd', v || '—'));
    }
    card.append(facts);
    // Online but passed over by dispatch: said on the card, with the reason the driver is given.
    if (d.status === 'approved' && d.online) {
      const r = d.receiving_jobs;
      card.append(el('p', r.yes ? 'Online and getting jobs.' : 'Online but not getting jobs: ' + r.message, r.yes ? 'hint' : 'alert error'));
    }
    for (const doc of d.documents) {
      const b = el('button', 'Download ' + doc.kind.replace(/_/g, ' '), 'decline'); b.type = 'button';
      b.addEventListener('click', () => download(d.id, doc).catch((e) => say(e.message)));
      card.append(b);
    }
    const reasonId = 'reason-' + d.id;
    const label = el('label', 'Reason (recorded)'); label.htmlFor = reasonId;
    const reason = el('input'); reason.type = 'text'; reason.id = reasonId;
    card.append(label, reason);
    let grantFleet = null;
    if (d.status === 'applicant' && d.requested_fleet_id) {
      // Granting a fleet is a separate, visible choice: approving the driver alone leaves it to the operator.
      const choice = el('label', undefined, 'choice');
      grantFleet = el('input'); grantFleet.type = 'checkbox'; grantFleet.value = d.requested_fleet_id;
      choice.append(grantFleet, document.createTextNode(' Also put them in fleet ' + d.requested_fleet_id + ' (checked with its operator)'));
      card.append(choice);
    }
    const actions = el('div', undefined, 'actions');
    const actionsFor = { applicant: [['approve', 'Approve'], ['reject', 'Reject']], approved: [['suspend', 'Suspend']], suspended: [['reinstate', 'Reinstate']], rejected: [] }[d.status] || [];
    for (const [action, text] of actionsFor) {
      const b = el('button', text, action === 'approve' || action === 'reinstate' ? undefined : 'decline'); b.type = 'button';
      b.addEventListener('click', () => decide(d.id, action, reason, grantFleet));
      actions.append(b);
    }
    card.append(actions);
    if (d.status === 'approved') {
      // Administrators only (the API says so to anyone else).
      const daysId = 'trial-days-' + d.id;
      const daysLabel = el('label', 'Extend the free trial by (days)'); daysLabel.htmlFor = daysId;
      const days = el('input'); days.type = 'number'; days.min = '1'; days.max = '365'; days.value = '14'; days.id = daysId;
      const extend = el('button', 'Extend trial', 'decline'); extend.type = 'button';
      extend.addEventListener('click', async () => {
        try {
          const r = await (await api('POST', '/api/ops/drivers/' + encodeURIComponent(d.id) + '/trial', { days: Number(days.value), reason: reason.value.trim() })).json();
          say('Trial of ' + d.id + ' now ends ' + r.trial_ends_at.slice(0, 10) + '.', true);
          await load();
        } catch (e) { say(e.message); }
      });
      card.append(daysLabel, days, extend);
    }
    const history = d.actions.map((a) => [a.at, a.action + ' by ' + a.by + (a.details && a.details.requested_fleet_id ? ' (asked for fleet ' + a.details.requested_fleet_id + (a.details.fleet_granted ? ', granted' : ', left to its operator') + ')' : '') + (a.reason ? ': ' + a.reason : '')])
      .concat(d.fleet.history.map((e) => [e.at, 'fleet ' + e.fleet_id + ' ' + e.event + ' by ' + e.by + ' (' + e.by_kind + ')' + (e.reason ? ': ' + e.reason : '')]))
      .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    if (history.length) {
      const log = el('ul');
      for (const [at, what] of history) log.append(el('li', at.slice(0, 16).replace('T', ' ') + ' ' + what));
      card.append(el('h4', 'History'), log);
    }
    card.dataset.sig = JSON.stringify(d);
    return card;
  };
  // Only what changed is redrawn: a card whose driver is as before is kept as it is, with whatever
  // was typed into it.
  const render = (list) => {
    const box = $('drivers');
    const old = new Map([...box.children].map((c) => [c.dataset.driver, c]));
    const cards = list.drivers.map((d) => { const o = old.get(d.id); return o && o.dataset.sig === JSON.stringify(d) ? o : driverCard(d); });
    if (cards.length !== box.children.length || cards.some((c, i) => box.children[i] !== c)) box.replaceChildren(...cards);
    $('none').hidden = list.total > 0;
    const first = list.total === 0 ? 0 : list.offset + 1;
    const last = list.offset + list.drivers.length;
    $('drivers-count').textContent = list.total === 0 ? '' : 'Showing ' + first + '–' + last + ' of ' + list.total + (list.q ? ' matching “' + list.q + '”' : '') + '.';
    $('pager').hidden = list.total <= list.limit && list.offset === 0;
    $('prev').disabled = list.previous_offset === null;
    $('next').disabled = list.next_offset === null;
    $('page-info').textContent = 'Page ' + (Math.floor(list.offset / list.limit) + 1) + ' of ' + Math.max(1, Math.ceil(list.total / list.limit));
  };
  const load = async () => {
    const q = new URLSearchParams();
    q.set('status', view.status);
    if (view.q) q.set('q', view.q);
    if (view.offset) q.set('offset', String(view.offset));
    history.replaceState(null, '', '/ops' + (q.toString() ? '?' + q : ''));
    // Only the latest look is drawn: an earlier answer arriving late (a page turned twice) is dropped.
    const look = ++looks;
    const list = await (await api('GET', '/api/ops/drivers?' + (view.status ? q : new URLSearchParams([...q].filter(([k]) => k !== 'status'))))).json();
    if (look !== looks) return;
    page = list;
    render(page);
  };
  const turn = (offset) => { if (offset === null) return; view.offset = offset; load().then(() => $('drivers-title').focus()).catch((e) => say(e.message)); };
  let timer = null;
  const refresh = () => {
    // Skipped while the tab is hidden or someone is typing on a card; the next look catches up.
    const typing = document.activeElement && $('drivers').contains(document.activeElement) && document.activeElement.tagName === 'INPUT';
    if (!key || document.hidden || typing) return;
    load().catch((e) => say(e.message));
    if (!(document.activeElement && $('changes').contains(document.activeElement) && document.activeElement.tagName === 'INPUT')) loadChanges().catch((e) => say(e.message));
  };
${OPS_CHANGES_SCRIPT}
  const show = async () => {
    $('sign-in').hidden = true; $('console').hidden = false;
    $('status').value = view.status; $('driver-q').value = view.q;
    await Promise.all([load(), loadChanges()]);
    if (!timer) timer = setInterval(refresh, REFRESH_MS);
  };
  $('key-form').addEventListener('submit', async (ev) => {
    ev.preventDefault(); key = $('key').value.trim();
    try { await show(); sessionStorage.setItem(KEY, key); say('', true); } catch (e) { say(e.message); }
  });
  $('status').addEventListener('change', () => { view.status = $('status').value; view.offset = 0; load().catch((e) => say(e.message)); });
  $('driver-search').addEventListener('submit', (ev) => { ev.preventDefault(); view.status = $('status').value; view.q = $('driver-q').value.trim(); view.offset = 0; load().then(() => say('', true)).catch((e) => say(e.message)); });
  $('prev').addEventListener('click', () => turn(page && page.previous_offset));
  $('next').addEventListener('click', () => turn(page && page.next_offset));
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  $('block-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      await api('POST', '/api/ops/passengers', { email: $('block-email').value, action: $('block-action').value, reason: $('block-reason').value });
      say('Passenger ' + $('block-email').value + ': ' + $('block-action').value + ' recorded.', true);
    } catch (e) { say(e.message); }
  });
  if (key) show().catch((e) => say(e.message));
})();
`);

/** The message line and staff-key form both ops pages open with (their scripts read #key-form and #message). */
export const staffSignIn = html`<p class="alert" id="message" role="status" aria-live="polite" hidden></p>
<section class="card" id="sign-in" aria-labelledby="sign-in-title">
<h2 id="sign-in-title">Staff sign-in</h2>
<form id="key-form">
<label for="key">Staff key</label>
<input id="key" name="key" type="password" autocomplete="off" required>
<button type="submit">Sign in</button>
</form>
</section>`;

export function renderOpsPage(): Page {
  const body = html`<h1>Operations</h1>
<p><a href="/ops/bookings">Live bookings, their stories and dispatch decisions</a></p>
<p><a href="/ops/invoices">Invoices owed by drivers and partners</a></p>
${staffSignIn}
<div id="console" hidden>
<section aria-labelledby="drivers-title">
<h2 id="drivers-title" tabindex="-1">Drivers</h2>
<form id="driver-search" class="toolbar" role="search" aria-label="Drivers">
<div><label for="status">Show</label>
<select id="status"><option value="applicant">Applicants</option><option value="approved">Approved</option><option value="suspended">Suspended</option><option value="rejected">Rejected</option><option value="">Everyone</option></select></div>
<div><label for="driver-q">Name or phone</label>
<input id="driver-q" type="search" maxlength="100" autocomplete="off" spellcheck="false" placeholder="Jo Bloggs, 07400 123456"></div>
<button type="submit">Search</button>
</form>
<p class="hint" id="drivers-count" role="status" aria-live="polite"></p>
<p class="hint" id="none" hidden>Nobody here.</p>
<div id="drivers" class="cards"></div>
<nav class="pager" id="pager" aria-label="Pages of drivers" hidden>
<button type="button" id="prev" class="decline">Previous page</button>
<span id="page-info"></span>
<button type="button" id="next" class="decline">Next page</button>
</nav>
</section>
${opsChangesSection}
<section class="card" aria-labelledby="block-title">
<h2 id="block-title">Block or unblock a passenger</h2>
<form id="block-form">
<label for="block-email">Passenger email</label>
<input id="block-email" type="email" required>
<label for="block-action">Action</label>
<select id="block-action"><option value="block">Block</option><option value="unblock">Unblock</option></select>
<label for="block-reason">Reason (recorded)</label>
<input id="block-reason" type="text" required minlength="3">
<button type="submit">Record</button>
</form>
</section>
</div>`;
  return layout({ title: 'Operations', body, script: OPS_SCRIPT, wide: true });
}
