import { MAX_DOCUMENT_BYTES } from '../drivers/application-limits.js';
import type { HomeArea } from '../drivers/home-areas.js';
import { html } from './escape-html.js';
import { inlineAsset, layout, type Page } from './layout.js';

// Applying to drive: licensing details and documents, sent to POST /api/drivers/applications. The
// documents are read in the browser and sent with the form; they are stored for operators only.

const MAX_MB = MAX_DOCUMENT_BYTES / 1024 / 1024;

const APPLY_SCRIPT = inlineAsset(`(() => {
  const MAX_BYTES = ${MAX_DOCUMENT_BYTES};
  const form = document.getElementById('apply');
  const message = document.getElementById('message');
  const summary = document.getElementById('form-error');
  const sentence = (label, text) => /^(is|must|may) /.test(text) ? label + ' ' + text : label + ': ' + text.charAt(0).toLowerCase() + text.slice(1);
  const clearErrors = () => {
    summary.hidden = true; summary.replaceChildren();
    for (const el of form.querySelectorAll('[data-error-for]')) el.textContent = '';
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  };
  // Every problem at once, each beside its field in plain words, and listed at the top with links.
  const showProblems = (problems, detail) => {
    const p = document.createElement('p');
    p.textContent = detail;
    summary.append(p);
    const ul = document.createElement('ul');
    for (const e of problems) {
      const name = String(e.field).replace(/^body\\./, '').replace(/^documents(\\..*)?$/, 'documents');
      const slot = form.querySelector('[data-error-for="' + CSS.escape(name) + '"]');
      const text = slot ? sentence(slot.dataset.label, String(e.message)) : String(e.message);
      if (slot) slot.textContent = text;
      const input = form.querySelector('[name="' + CSS.escape(name) + '"]');
      if (input) input.setAttribute('aria-invalid', 'true');
      const li = document.createElement('li');
      if (input) { const a = document.createElement('a'); a.href = '#' + input.id; a.textContent = text; li.append(a); } else li.textContent = text;
      ul.append(li);
    }
    if (problems.length > 0) summary.append(ul);
    summary.hidden = false;
    summary.focus();
  };
  /** What the browser can tell before sending: every required field left empty, all at once. */
  const missing = () => [...form.querySelectorAll('[required]')].filter((el) => el.type === 'file' ? el.files.length === 0 : !el.value.trim())
    .map((el) => ({ field: el.name, message: el.type === 'file' ? 'is needed: choose a PDF, JPEG or PNG' : el.tagName === 'SELECT' ? 'is needed: choose one' : 'is needed' }));
  const say = (text, ok) => { message.textContent = text; message.className = 'alert ' + (ok ? 'ok' : 'error'); message.hidden = false; message.focus(); };
  const read = (file) => new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).split(',')[1] || '');
    r.onerror = () => reject(new Error('Could not read ' + file.name));
    r.readAsDataURL(file);
  });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = form.elements;
    const submit = form.querySelector('button[type=submit]');
    clearErrors();
    const empty = missing();
    if (empty.length > 0) { showProblems(empty, empty.length === 1 ? 'One thing is missing:' : empty.length + ' things are missing:'); return; }
    submit.disabled = true;
    try {
      const documents = [];
      for (const [kind, input] of [['driver_licence', f.driver_licence_file], ['vehicle_licence', f.vehicle_licence_file], ['insurance', f.insurance_file]]) {
        const file = input.files[0];
        if (file && file.size > MAX_BYTES) throw new Error(file.name + ' is larger than ${MAX_MB} MB: take a smaller photo or scan, and try again.');
        if (file) documents.push({ kind, content_type: file.type, data_base64: await read(file) });
      }
      const body = {
        name: f.name.value, phone: f.phone.value, email: f.email.value, licensing_authority: f.licensing_authority.value,
        driver_licence_number: f.driver_licence_number.value, driver_licence_expires: f.driver_licence_expires.value,
        vehicle_licence_number: f.vehicle_licence_number.value, vehicle_licence_expires: f.vehicle_licence_expires.value,
        vehicle_make: f.vehicle_make.value, vehicle_model: f.vehicle_model.value, vehicle_registration: f.vehicle_registration.value,
        vehicle_colour: f.vehicle_colour.value.trim() || null,
        vehicle_type: f.vehicle_type.value, seats: Number(f.seats.value), wheelchair_accessible: f.wheelchair_accessible.checked,
        home_area: f.home_area.value, tier: f.tier.value, documents,
      };
      const send = () => fetch('/api/drivers/applications', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
      let res = await send();
      // Busy with other uploads (503): wait as told and send again, a few times.
      for (let tries = 0; res.status === 503 && tries < 5; tries++) {
        await new Promise((r) => setTimeout(r, 1000 * Math.min(30, Number(res.headers.get('retry-after')) || 5)));
        res = await send();
      }
      const reply = await res.json().catch(() => null);
      if (res.ok) {
        form.hidden = true;
        say('Thank you. Your application ' + reply.driver_id + ' is with our operators; we will text you when it is decided.', true);
        return;
      }
      if (reply && Array.isArray(reply.errors) && reply.errors.length > 0) showProblems(reply.errors, 'Please correct these and apply again:');
      else say((reply && reply.detail) || 'Something went wrong. Please try again.');
    } catch (e) {
      say(e.message || 'No connection. Check your signal and try again.');
    }
    submit.disabled = false;
  });
})();
`);

export const VEHICLES: Array<[string, string]> = [
  ['saloon', 'Saloon (4)'],
  ['estate', 'Estate (4)'],
  ['executive', 'Executive (4)'],
  ['luxury', 'Luxury (4)'],
  ['5seater', '5 seats'],
  ['6seater', '6 seats'],
  ['7seater', '7 seats'],
  ['mpv', 'MPV (8)'],
  ['wav', 'Wheelchair accessible'],
];

export function renderApplyPage(areas: readonly HomeArea[]): Page {
  const slot = (id: string, label: string) =>
    html`<p class="field-error" id="${id}-error" data-error-for="${id}" data-label="${label}"></p>`;
  const field = (id: string, label: string, type = 'text', autocomplete = '') =>
    html`<label for="${id}">${label}</label><input id="${id}" name="${id}" type="${type}" required aria-describedby="${id}-error"${autocomplete ? html` autocomplete="${autocomplete}"` : ''}>${slot(id, label)}`;
  const body = html`<h1>Drive with Direct Taxi</h1>
<p>No commission: every fare is yours. Free for 90 days, then £20 only in weeks you earn over £500.</p>
<p class="alert" id="message" role="status" tabindex="-1" hidden></p>
<div class="alert error" id="form-error" role="alert" tabindex="-1" hidden></div>
<form id="apply" class="card" novalidate>
<h2>You</h2>
${field('name', 'Full name', 'text', 'name')}
${field('phone', 'Mobile number (e.g. 07400 123456, or + and the country code)', 'tel', 'tel')}
${field('email', 'Email', 'email', 'email')}
<h2>Licences</h2>
${field('licensing_authority', 'Licensing authority (council)')}
${field('driver_licence_number', 'Driver licence number')}
${field('driver_licence_expires', 'Driver licence expires', 'date')}
${field('vehicle_licence_number', 'Vehicle licence (plate) number')}
${field('vehicle_licence_expires', 'Vehicle licence expires', 'date')}
<h2>Vehicle</h2>
${field('vehicle_make', 'Make')}
${field('vehicle_model', 'Model')}
${field('vehicle_registration', 'Registration (as on the number plate, e.g. AB12 CDE)')}
<label for="vehicle_colour">Colour <span class="muted">(optional)</span></label>
<input id="vehicle_colour" name="vehicle_colour" type="text" maxlength="30" aria-describedby="vehicle_colour-hint vehicle_colour-error">
<p class="hint" id="vehicle_colour-hint">As passengers will see it, e.g. silver or dark blue: with the registration, it is how they find your car.</p>
${slot('vehicle_colour', 'Colour')}
<label for="vehicle_type">Vehicle class</label>
<select id="vehicle_type" name="vehicle_type" aria-describedby="vehicle_type-error">${VEHICLES.map(([v, l]) => html`<option value="${v}">${l}</option>`)}</select>
${slot('vehicle_type', 'Vehicle class')}
<label for="seats">Passenger seats</label>
<input id="seats" name="seats" type="number" min="1" max="16" value="4" required aria-describedby="seats-error">
${slot('seats', 'Passenger seats')}
<label class="choice"><input type="checkbox" id="wheelchair_accessible" name="wheelchair_accessible"> Wheelchair accessible</label>
<h2>Where you drive</h2>
<label for="home_area">Home licensing area</label>
<select id="home_area" name="home_area" required aria-describedby="home_area-hint home_area-error">
<option value="">Choose the council that licensed you</option>
${areas.map((a) => html`<option value="${a.id}">${a.name}</option>`)}
<option value="national-default">Another council</option>
</select>
<p class="hint" id="home_area-hint">Local drivers are offered jobs that start in this area; national network drivers anywhere near them.</p>
${slot('home_area', 'Home licensing area')}
<label for="tier">How you drive with us</label>
<select id="tier" name="tier"><option value="local">Local driver</option><option value="national">National network</option></select>
<h2>Documents</h2>
<p class="hint">PDF, JPEG or PNG, up to ${MAX_MB} MB each. Seen only by our operators.</p>
<label for="driver_licence_file">Driver licence</label>
<input id="driver_licence_file" name="driver_licence_file" type="file" accept="application/pdf,image/jpeg,image/png" required aria-describedby="driver_licence_file-error">
${slot('driver_licence_file', 'Driver licence')}
<label for="vehicle_licence_file">Vehicle licence</label>
<input id="vehicle_licence_file" name="vehicle_licence_file" type="file" accept="application/pdf,image/jpeg,image/png" required aria-describedby="vehicle_licence_file-error">
${slot('vehicle_licence_file', 'Vehicle licence')}
<label for="insurance_file">Insurance (optional)</label>
<input id="insurance_file" name="insurance_file" type="file" accept="application/pdf,image/jpeg,image/png">
${slot('documents', 'Documents')}
<button type="submit">Apply</button>
</form>`;
  return layout({ title: 'Apply to drive', body, script: APPLY_SCRIPT });
}
