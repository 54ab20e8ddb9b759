import { html } from './escape-html.js';
import { layout, type Page } from './layout.js';
import { pageScript } from './page-scripts.js';
import { staffSignIn } from './ops-page.js';

// The booking records for a licensing officer (/ops/records, docs/records.md): pick the authority
// and London days, say why, then download them (CSV or JSON) or show them here to print; the latest
// exports and each authority's retention below. Signs in with the staff key of /ops. Its script:
// src/pages/browser/ops-records.ts.

export function renderOpsRecordsPage(): Page {
  const body = html`<h1>Booking records</h1>
<p><a href="/ops">Drivers and passengers</a> · <a href="/ops/bookings">Bookings</a></p>
${staffSignIn}
<div id="console" hidden>
<form id="export-form" class="toolbar" aria-label="Booking records">
<div><label for="authority">Licensing authority</label><select id="authority" required></select></div>
<div><label for="from">From (London day)</label><input id="from" type="date" required></div>
<div><label for="to">To (inclusive)</label><input id="to" type="date" required></div>
<div><label for="reason">Why (the officer, or the request)</label><input id="reason" type="text" maxlength="200" minlength="3" required autocomplete="off"></div>
<div><label for="format">Format</label><select id="format"><option value="csv">CSV (spreadsheet)</option><option value="json">JSON</option></select></div>
<div><button type="submit" id="download">Download</button> <button type="button" id="show">Show to print</button></div>
</form>
<p class="hint">Every export is recorded with your name and the reason. Records are kept for each authority's retention and then erased with the passenger's details.</p>
<p class="hint" id="count" role="status"></p>
<div id="shown" hidden>
<p><button type="button" id="print">Print</button></p>
<table id="records"><thead><tr><th scope="col">Ref</th><th scope="col">Received</th><th scope="col">How, taken by</th><th scope="col">Passenger</th><th scope="col">Pick-up, time</th><th scope="col">Destination</th><th scope="col">Fare quoted</th><th scope="col">Driver, licence, vehicle</th><th scope="col">Allocated, by</th><th scope="col">Sub-contract</th><th scope="col">Outcome</th></tr></thead><tbody id="record-rows"></tbody></table>
</div>
<h2>Latest exports</h2>
<table><thead><tr><th scope="col">When</th><th scope="col">By</th><th scope="col">Authority</th><th scope="col">Days</th><th scope="col">Format</th><th scope="col">Bookings</th><th scope="col">Why</th></tr></thead><tbody id="export-rows"></tbody></table>
<h2>Retention</h2>
<table><thead><tr><th scope="col">Authority</th><th scope="col">Kept for</th></tr></thead><tbody id="retention-rows"></tbody></table>
</div>`;
  return layout({ title: 'Booking records', body, script: pageScript('ops-records'), wide: true });
}
