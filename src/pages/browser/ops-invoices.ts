// /ops/invoices (src/pages/ops-invoices-page.ts): the unpaid and overdue weekly invoices, oldest
// first, from GET /api/ops/invoices, with the staff key of /ops.
import { $, $select, el, keyConsole, sayError } from './dom.js';
import { londonDate, pounds } from './format.js';

interface Invoice {
  week_start: string;
  name: string;
  account: string;
  account_id: string;
  phone: string | null;
  total_pence: number;
  status: 'unpaid' | 'overdue' | 'paid';
  overdue_at: string | null;
  reminders_sent: number;
}

const staff = keyConsole({
  storageKey: 'directTaxiStaffKey',
  consoleId: 'console',
  invalid: 'That staff key is not valid.',
});

/** One invoice's cells, as the table's columns read. */
function invoiceCells(i: Invoice): (string | number)[] {
  return [
    londonDate(i.week_start),
    `${i.name} (${i.account} ${i.account_id})`,
    i.phone || '—',
    pounds(i.total_pence),
    i.status === 'overdue' && i.overdue_at ? `Overdue since ${londonDate(i.overdue_at)}` : 'Unpaid',
    i.reminders_sent,
  ];
}

const load = async () => {
  const status = encodeURIComponent($select('status').value);
  const { invoices } = await staff.api.json<{ invoices: Invoice[] }>('GET', `/api/ops/invoices?status=${status}`);
  $('rows').replaceChildren(
    ...invoices.map((i) => {
      const tr = el('tr');
      for (const v of invoiceCells(i)) tr.append(el('td', v));
      return tr;
    }),
  );
  $('none').hidden = invoices.length > 0;
};

$select('status').addEventListener('change', () => void load().catch(sayError));
staff.start(load);
