import { html } from './escape-html.js';
import { layout, type Page } from './layout.js';
import { pageScript } from './page-scripts.js';

// The operator's dashboard: sign in with the operator bridge key (kept for this browser tab only),
// see a week of jobs from the bridge (a calendar of seven London days from today, or from a day
// picked, each job on its pickup day; and the same jobs by pickup time), and assign each to a
// driver of the operator's own fleet; answer drivers asking to join the fleet, and take drivers out
// of it. The page reads everything in one request (GET /api/operator/dashboard), repeated every
// 15 s while the tab is shown, and redraws only what changed; actions go through /api/operator.
// Its script: src/pages/browser/operator.ts.

export function renderOperatorPage(): Page {
  const body = html`<h1>Operator dashboard</h1>
<p class="alert" id="message" role="status" aria-live="polite" hidden></p>
<section class="card" id="sign-in" aria-labelledby="sign-in-title">
<h2 id="sign-in-title">Sign in</h2>
<form id="key-form">
<label for="key">Operator bridge key</label>
<input id="key" name="key" type="password" autocomplete="off" required>
<button type="submit">Sign in</button>
</form>
</section>
<div id="dashboard" hidden>
<section aria-labelledby="week-title">
<h2 id="week-title">The week for <span id="operator-name"></span></h2>
<div class="toolbar">
<div><label for="day">Week from</label>
<input id="day" type="date"></div>
<button type="button" id="refresh" class="decline">Refresh</button>
</div>
<p class="hint" id="updated"></p>
<div class="table-scroll" role="region" aria-label="Week calendar: jobs by London pickup day" tabindex="0">
<div id="week" class="week"></div>
</div>
</section>
<section aria-labelledby="jobs-title">
<h2 id="jobs-title">Jobs this week</h2>
<div class="table-scroll" role="region" aria-labelledby="jobs-title" tabindex="0">
<table>
<caption class="visually-hidden">Jobs by pickup time (Europe/London)</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Pickup</th><th scope="col">Job</th><th scope="col">Route</th><th scope="col">Passenger</th><th scope="col">Status</th><th scope="col">Assign</th></tr></thead>
<tbody id="jobs"></tbody>
</table>
</div>
<p class="hint" id="none" hidden>No jobs these seven days.</p>
</section>
<section aria-labelledby="requests-title">
<h2 id="requests-title">Drivers asking to join your fleet</h2>
<p class="hint">Nobody is in your fleet, or can be given your jobs, until you accept them.</p>
<div class="table-scroll" role="region" aria-labelledby="requests-title" tabindex="0">
<table>
<caption class="visually-hidden">Requests to join, oldest first</caption>
<thead><tr><th scope="col">Driver</th><th scope="col">Vehicle</th><th scope="col">Status with us</th><th scope="col">Asked</th><th scope="col">Answer</th></tr></thead>
<tbody id="requests"></tbody>
</table>
</div>
<p class="hint" id="no-requests" hidden>No requests.</p>
</section>
<section aria-labelledby="members-title">
<h2 id="members-title">Your fleet</h2>
<div class="table-scroll" role="region" aria-labelledby="members-title" tabindex="0">
<table>
<caption class="visually-hidden">Drivers in your fleet</caption>
<thead><tr><th scope="col">Driver</th><th scope="col">Vehicle</th><th scope="col">Now</th><th scope="col">Remove</th></tr></thead>
<tbody id="members"></tbody>
</table>
</div>
<p class="hint" id="no-members" hidden>No drivers in your fleet yet.</p>
</section>
</div>`;
  return layout({ title: 'Operator dashboard', body, script: pageScript('operator'), wide: true });
}
