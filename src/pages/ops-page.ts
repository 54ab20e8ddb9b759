import { html } from './escape-html.js';
import { layout, type Page } from './layout.js';
import { opsChangesSection } from './ops-driver-changes.js';
import { pageScript } from './page-scripts.js';

// The operators' page: sign in with a staff key (kept for this browser tab only), review
// applicants and their documents and the fleet they ask to join, approve or reject, suspend or
// reinstate, block a passenger and, for admins, extend a trial. Every action goes through /api/ops
// and is recorded with who and why. Drivers come a page at a time (50), searched by name or phone,
// each page in one request (GET /api/ops/drivers), refreshed every 30 s while the tab is shown; the
// page's place (status, search, page) is in its address, so a reload opens where it was. Its
// script: src/pages/browser/ops.ts.

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
<p><a href="/ops/invoices">Invoices owed by drivers and partners</a> · <a href="/ops/records">Booking records for licensing officers</a></p>
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
  return layout({ title: 'Operations', body, script: pageScript('ops'), wide: true });
}
