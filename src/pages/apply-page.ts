import { MAX_DOCUMENT_BYTES } from '../drivers/application-limits.js';
import type { HomeArea } from '../drivers/home-areas.js';
import { html } from './escape-html.js';
import { layout, type Page } from './layout.js';
import { pageScript } from './page-scripts.js';

// Applying to drive: licensing details and documents, sent to POST /api/drivers/applications. The
// documents are read in the browser and sent with the form; they are stored for operators only.
// Its script: src/pages/browser/apply.ts (the size limit in the form's data- attributes).

const MAX_MB = MAX_DOCUMENT_BYTES / 1024 / 1024;

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
<form id="apply" class="card" data-max-bytes="${MAX_DOCUMENT_BYTES}" data-max-mb="${MAX_MB}" novalidate>
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
  return layout({ title: 'Apply to drive', body, script: pageScript('apply') });
}
