import { html } from './escape-html.js';
import { layout, type Page } from './layout.js';
import { pageScript } from './page-scripts.js';
import { staffSignIn } from './ops-page.js';

// The ops view's page (/ops/bookings): live bookings, those without a driver near pickup first; a
// booking's whole story from its reference; its decision log with a driver filter that says why a
// driver was not offered the job. Signs in with the same staff key as /ops (kept for this tab).
// Everything comes from /api/ops/bookings...; times are shown in Europe/London. The board comes a
// page at a time (50), searched by reference, passenger phone or a partner's jobRef, each look one
// request, refreshed every 30 s while the tab is shown. Its script: src/pages/browser/ops-bookings.ts.

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
  return layout({ title: 'Live bookings', body, script: pageScript('ops-bookings'), wide: true });
}
