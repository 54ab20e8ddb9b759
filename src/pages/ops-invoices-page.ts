import { html } from './escape-html.js';
import { layout, type Page } from './layout.js';
import { pageScript } from './page-scripts.js';
import { staffSignIn } from './ops-page.js';

// Ops' view of what drivers and partners owe (/ops/invoices): unpaid and overdue weekly invoices,
// oldest first, from GET /api/ops/invoices (docs/billing.md). Signs in with the same staff key as
// /ops (kept for this tab); weeks are shown by their Monday, London time. Its script:
// src/pages/browser/ops-invoices.ts.

export function renderOpsInvoicesPage(): Page {
  const body = html`<h1>Invoices owed</h1>
<p><a href="/ops">Drivers and passengers</a></p>
${staffSignIn}
<div id="console" hidden>
<form class="toolbar" aria-label="Invoices">
<div><label for="status">Show</label>
<select id="status"><option value="open">Unpaid and overdue</option><option value="overdue">Overdue</option><option value="unpaid">Unpaid, not yet overdue</option></select></div>
</form>
<p class="hint">Drivers are reminded every 3 days (3 times at most); an invoice unpaid 14 days is overdue, and ops are emailed once.</p>
<p class="hint" id="none" hidden>Nothing is owed.</p>
<table><thead><tr><th scope="col">Week of</th><th scope="col">Who</th><th scope="col">Phone</th><th scope="col">Total</th><th scope="col">Status</th><th scope="col">Reminders</th></tr></thead><tbody id="rows"></tbody></table>
</div>`;
  return layout({ title: 'Invoices owed', body, script: pageScript('ops-invoices'), wide: true });
}
