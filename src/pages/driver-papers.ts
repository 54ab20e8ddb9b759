import { MAX_DOCUMENT_BYTES } from '../drivers/application-limits.js';
import { html } from './escape-html.js';
import { VEHICLES } from './apply-page.js';

// "Your papers" in the driver app (issue 24, item 5): a renewed licence, a changed vehicle or a new
// phone, sent for staff to review, and what was sent with where it stands. Its script is part of
// the driver app's (src/pages/browser/driver-papers.ts).

const MB = MAX_DOCUMENT_BYTES / 1024 / 1024;

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
