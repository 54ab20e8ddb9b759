import { html } from './escape-html.js';

// The ops console's "Papers to review" (issue 24, item 5): what drivers sent from the app (a
// renewed licence, a changed vehicle, a new phone) beside what is on record, the documents to
// download, and approve or refuse with a reason. Its script runs inside the ops page's own
// (src/pages/ops-page.ts), using its api, el and say.

/** Script text for inside the ops page's IIFE: defines loadChanges(). */
export const OPS_CHANGES_SCRIPT = `
  const CHANGE_KIND = { licences: 'Renewed licence', vehicle: 'Vehicle change', phone: 'New phone number' };
  const CHANGE_FIELDS = {
    driverLicenceExpires: 'Driver licence expires', vehicleLicenceExpires: 'Vehicle licence expires', vehicleRegistration: 'Registration',
    vehicleColour: 'Colour', vehicleType: 'Class', seats: 'Seats', wheelchairAccessible: 'Wheelchair accessible', phone: 'Phone',
  };
  const shown = (v) => (v === null || v === undefined || v === '' ? '—' : v === true ? 'yes' : v === false ? 'no' : String(v));
  const changeCard = (c) => {
    const card = el('article', undefined, 'card');
    card.dataset.change = c.id;
    card.append(el('h3', CHANGE_KIND[c.kind] + ' from ' + c.driver_name + ' (' + c.driver_id + ')'));
    card.append(el('p', 'Sent ' + c.submitted_at.slice(0, 16).replace('T', ' ') + ' UTC; driver ' + c.driver_status + ', phone ' + c.driver_phone, 'hint'));
    const table = el('table');
    const head = el('tr');
    for (const h of ['', 'On record', 'Sent']) { const th = el('th', h); th.scope = 'col'; head.append(th); }
    const thead = el('thead'); thead.append(head);
    const body = el('tbody');
    for (const k of Object.keys(c.details)) {
      if (c.kind === 'licences' && c.details[k] === null) continue;
      const tr = el('tr'); const th = el('th', CHANGE_FIELDS[k] || k); th.scope = 'row';
      tr.append(th, el('td', shown(c.current[k])), el('td', shown(c.details[k])));
      body.append(tr);
    }
    table.append(thead, body);
    card.append(table);
    for (const doc of c.documents) {
      const b = el('button', 'Download ' + doc.kind.replace(/_/g, ' '), 'decline'); b.type = 'button';
      b.addEventListener('click', async () => {
        try {
          const res = await api('GET', '/api/ops/driver-changes/' + c.id + '/documents/' + doc.id);
          const a = el('a'); a.href = URL.createObjectURL(await res.blob()); a.download = c.driver_id + '-renewed-' + doc.kind; a.click();
        } catch (e) { say(e.message); }
      });
      card.append(b);
    }
    const reasonId = 'change-reason-' + c.id;
    const label = el('label', 'Reason (required to refuse; the driver is told it)'); label.htmlFor = reasonId;
    const reason = el('input'); reason.type = 'text'; reason.id = reasonId; reason.maxLength = 500;
    card.append(label, reason);
    const actions = el('div', undefined, 'actions');
    for (const [action, text] of [['approve', 'Approve'], ['refuse', 'Refuse']]) {
      const b = el('button', text, action === 'refuse' ? 'decline' : undefined); b.type = 'button';
      b.addEventListener('click', async () => {
        b.disabled = true;
        try {
          await api('POST', '/api/ops/driver-changes/' + c.id + '/decision', { action, reason: reason.value.trim() || null });
          say(CHANGE_KIND[c.kind] + ' from ' + c.driver_name + ': ' + (action === 'approve' ? 'approved' : 'refused') + ', and the driver told.', true);
          await loadChanges();
        } catch (e) { say(e.message); }
        b.disabled = false;
      });
      actions.append(b);
    }
    card.append(actions);
    card.dataset.sig = JSON.stringify(c);
    return card;
  };
  const loadChanges = async () => {
    const list = await (await api('GET', '/api/ops/driver-changes')).json();
    const box = $('changes');
    const old = new Map([...box.children].map((x) => [x.dataset.change, x]));
    box.replaceChildren(...list.changes.map((c) => { const o = old.get(c.id); return o && o.dataset.sig === JSON.stringify(c) ? o : changeCard(c); }));
    $('no-changes').hidden = list.changes.length > 0;
  };
`;

export const opsChangesSection = html`<section aria-labelledby="changes-title">
<h2 id="changes-title">Papers to review</h2>
<p class="hint">Renewed licences, changed vehicles and new phone numbers drivers sent from the app, oldest first.</p>
<p class="hint" id="no-changes">Nothing to review.</p>
<div id="changes" class="cards"></div>
</section>`;
