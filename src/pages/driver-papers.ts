import { MAX_DOCUMENT_BYTES } from '../drivers/application-limits.js';
import { html } from './escape-html.js';
import { VEHICLES } from './apply-page.js';

// "Your papers" in the driver app (issue 24, item 5): a renewed licence, a changed vehicle or a new
// phone, sent for staff to review, and what was sent with where it stands. Its script runs inside
// the driver app's own (src/pages/driver-app-page.ts), using its token, el, $ and say.

const MB = MAX_DOCUMENT_BYTES / 1024 / 1024;

/** Script text for inside the driver app's IIFE: defines refreshPapers(). */
export const PAPERS_SCRIPT = `
  const PAPER_FIELDS = {
    'driver_licence.expires': 'Driver licence expiry date', 'driver_licence.document': 'Driver licence photo or scan',
    'vehicle_licence.expires': 'Vehicle licence expiry date', 'vehicle_licence.document': 'Vehicle licence photo or scan',
    vehicle_registration: 'Registration', vehicle_colour: 'Colour', vehicle_type: 'Vehicle class', seats: 'Seats',
    wheelchair_accessible: 'Wheelchair access', phone: 'New phone number', code: 'Code',
  };
  const PAPER_KIND = { licences: 'Renewed licence', vehicle: 'Vehicle change', phone: 'New phone number' };
  const PAPER_STATUS = { pending: 'Waiting for review', approved: 'Approved', refused: 'Not approved' };
  const paperLabel = (field) => { const f = field.replace(/^body\\./, ''); const k = Object.keys(PAPER_FIELDS).find((x) => f === x || f.startsWith(x + '.')); return k ? PAPER_FIELDS[k] : f.replace(/_/g, ' '); };
  const paperErrors = (lines) => { const box = $('papers-errors'); box.replaceChildren(...lines.map((t) => el('li', t))); box.hidden = lines.length === 0; if (lines.length) box.focus(); };
  // Its own calls, to show every field's problem (the app's api() keeps only the summary).
  const papersSend = async (path, body) => {
    const res = await fetch(path, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json', authorization: 'Bearer ' + token }, body: JSON.stringify(body) });
    if (res.status === 401) { signedOut(); throw new Error('Your session has ended. Sign in again.'); }
    const reply = await res.json().catch(() => null);
    if (res.ok) { paperErrors([]); return reply; }
    const lines = reply && reply.errors && reply.errors.length ? reply.errors.map((e) => paperLabel(e.field) + ' ' + e.message) : [];
    paperErrors(lines);
    throw new Error((reply && reply.detail) || 'Something went wrong. Please try again.');
  };
  const readUpload = (file) => new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve({ content_type: file.type, data_base64: String(r.result).replace(/^data:[^,]*,/, '') });
    r.onerror = () => reject(new Error('That file could not be read.'));
    r.readAsDataURL(file);
  });
  const refreshPapers = async () => {
    const [me, mine] = await Promise.all([api('GET', '/api/driver/me'), api('GET', '/api/driver/changes')]);
    $('licence-notice').textContent = me.licence_notice || '';
    $('licence-notice').hidden = !me.licence_notice;
    $('papers-changes').replaceChildren(...mine.changes.map((c) => {
      const item = el('div', undefined, 'paper-change');
      item.dataset.status = c.status;
      item.append(el('h3', PAPER_KIND[c.kind] + ': ' + (PAPER_STATUS[c.status] || c.status)), el('p', c.summary));
      if (c.status === 'refused' && c.reason) item.append(el('p', 'Why: ' + c.reason));
      item.append(el('p', 'Sent ' + when(c.submitted_at), 'hint'));
      return item;
    }));
    $('no-papers-changes').hidden = mine.changes.length > 0;
  };
  const papersSubmit = (form, send) => form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    try { const r = await send(); say(r.message, true); form.reset(); await refreshPapers(); } catch (e) { say(e.message); }
    submit.disabled = false;
  });
  papersSubmit($('licence-change-form'), async () => {
    const body = {};
    const missing = [];
    for (const [key, prefix, words] of [['driver_licence', 'dl', 'Driver licence'], ['vehicle_licence', 'vl', 'Vehicle licence']]) {
      const expires = $(prefix + '-expires').value;
      const file = $(prefix + '-file').files[0];
      if (!expires && !file) continue;
      if (!expires || !file) { missing.push(words + ': give both the new expiry date and a photo or scan of it.'); continue; }
      body[key] = { expires, document: await readUpload(file) };
    }
    if (!missing.length && !body.driver_licence && !body.vehicle_licence) missing.push('Give the new expiry date and a photo or scan of the driver licence, the vehicle licence, or both.');
    if (missing.length) { paperErrors(missing); throw new Error('Please check the renewed licence.'); }
    return papersSend('/api/driver/changes/licences', body);
  });
  papersSubmit($('vehicle-change-form'), () => papersSend('/api/driver/changes/vehicle', {
    vehicle_registration: $('vc-registration').value, vehicle_colour: $('vc-colour').value.trim() || null, vehicle_type: $('vc-type').value,
    seats: Number($('vc-seats').value), wheelchair_accessible: $('vc-wheelchair').checked,
  }));
  let newPhone = '';
  papersSubmit($('phone-change-form'), async () => {
    newPhone = $('pc-phone').value;
    const r = await papersSend('/api/driver/changes/phone/code', { phone: newPhone });
    $('phone-code-form').hidden = false;
    $('pc-code').focus();
    return { message: 'We have texted a code to ' + r.phone + '. Enter it below.' };
  });
  papersSubmit($('phone-code-form'), async () => {
    const r = await papersSend('/api/driver/changes/phone', { phone: newPhone, code: $('pc-code').value });
    $('phone-code-form').hidden = true;
    return r;
  });
  setInterval(() => { if (token && !document.hidden) refreshPapers().catch(() => {}); }, 30000);
`;

export const papersSection = html`<section class="card" id="papers" aria-labelledby="papers-title">
<h2 id="papers-title">Your papers</h2>
<p class="alert error" id="licence-notice" role="status" hidden></p>
<p class="hint">Send a renewed licence, a change of vehicle or a new phone number here. Staff check it, usually the same day, and we text you when it is done.</p>
<ul class="alert error" id="papers-errors" role="alert" tabindex="-1" hidden></ul>
<h3>What you sent</h3>
<p class="hint" id="no-papers-changes">Nothing waiting for review.</p>
<div id="papers-changes"></div>
<h3>Renewed licence</h3>
<form id="licence-change-form" novalidate>
<fieldset><legend>Driver licence</legend>
<label for="dl-expires">New expiry date</label><input id="dl-expires" type="date">
<label for="dl-file">Photo or scan (PDF, JPEG or PNG, up to ${String(MB)} MB)</label><input id="dl-file" type="file" accept="application/pdf,image/jpeg,image/png">
</fieldset>
<fieldset><legend>Vehicle licence</legend>
<label for="vl-expires">New expiry date</label><input id="vl-expires" type="date">
<label for="vl-file">Photo or scan (PDF, JPEG or PNG, up to ${String(MB)} MB)</label><input id="vl-file" type="file" accept="application/pdf,image/jpeg,image/png">
</fieldset>
<button type="submit">Send renewed licence</button>
</form>
<h3>Changed vehicle</h3>
<form id="vehicle-change-form" novalidate>
<label for="vc-registration">Registration</label><input id="vc-registration" type="text" autocomplete="off" autocapitalize="characters" placeholder="MA19 XYZ" maxlength="10">
<label for="vc-colour">Colour (optional)</label><input id="vc-colour" type="text" autocomplete="off" placeholder="Silver" maxlength="30">
<label for="vc-type">Vehicle class</label><select id="vc-type">${VEHICLES.map(([v, l]) => html`<option value="${v}">${l}</option>`)}</select>
<label for="vc-seats">Passenger seats</label><input id="vc-seats" type="number" inputmode="numeric" min="1" max="16" value="4">
<label class="choice"><input id="vc-wheelchair" type="checkbox"> Wheelchair accessible</label>
<button type="submit">Send vehicle change</button>
</form>
<h3>New phone number</h3>
<form id="phone-change-form" novalidate>
<label for="pc-phone">New phone number</label><input id="pc-phone" type="tel" autocomplete="tel" placeholder="07400 123456">
<button type="submit">Text a code to the new number</button>
</form>
<form id="phone-code-form" hidden novalidate>
<label for="pc-code">The 6-digit code sent to the new number</label><input id="pc-code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6">
<button type="submit">Confirm the new number</button>
</form>
</section>`;
