import { html } from './escape-html.js';
import { inlineAsset, layout, type Page } from './layout.js';
import { staffSignIn } from './ops-page.js';

// Ops' view of what drivers and partners owe (/ops/invoices): unpaid and overdue weekly invoices,
// oldest first, from GET /api/ops/invoices (docs/billing.md). Signs in with the same staff key as
// /ops (kept for this tab); weeks are shown by their Monday, London time.

const SCRIPT = inlineAsset(`(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = 'directTaxiStaffKey';
  let key = sessionStorage.getItem(KEY);
  const say = (text, ok) => { const m = $('message'); m.textContent = text; m.className = 'alert ' + (ok ? 'ok' : 'error'); m.hidden = !text; };
  const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined && text !== null) e.textContent = String(text); return e; };
  const pounds = (p) => '£' + (p / 100).toFixed(2);
  const monday = (iso) => new Date(iso).toLocaleDateString('en-GB', { timeZone: 'Europe/London', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  const load = async () => {
    const res = await fetch('/api/ops/invoices?status=' + encodeURIComponent($('status').value), { headers: { accept: 'application/json', authorization: 'Bearer ' + key } });
    if (res.status === 401) { sessionStorage.removeItem(KEY); key = null; $('console').hidden = true; $('sign-in').hidden = false; throw new Error('That staff key is not valid.'); }
    if (!res.ok) throw new Error('Something went wrong.');
    const { invoices } = await res.json();
    $('rows').replaceChildren(...invoices.map((i) => {
      const tr = el('tr');
      for (const v of [monday(i.week_start), i.name + ' (' + i.account + ' ' + i.account_id + ')', i.phone || '—', pounds(i.total_pence), i.status === 'overdue' ? 'Overdue since ' + monday(i.overdue_at) : 'Unpaid', i.reminders_sent]) tr.append(el('td', v));
      return tr;
    }));
    $('none').hidden = invoices.length > 0;
  };
  const show = async () => { $('sign-in').hidden = true; $('console').hidden = false; await load(); };
  $('key-form').addEventListener('submit', async (ev) => {
    ev.preventDefault(); key = $('key').value.trim();
    try { await show(); sessionStorage.setItem(KEY, key); say('', true); } catch (e) { say(e.message); }
  });
  $('status').addEventListener('change', () => load().catch((e) => say(e.message)));
  if (key) show().catch((e) => say(e.message));
})();
`);

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
  return layout({ title: 'Invoices owed', body, script: SCRIPT, wide: true });
}
