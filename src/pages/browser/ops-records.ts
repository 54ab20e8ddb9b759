// /ops/records (src/pages/ops-records-page.ts): a licensing authority's booking records for a range
// of London days, downloaded (GET /api/ops/records, CSV or JSON) or shown here to print, with the
// latest exports and each authority's retention (GET /api/ops/records/authorities).
import { $, $button, $form, $input, $select, download, el, keyConsole, say, sayError } from './dom.js';
import { londonTime, pounds } from './format.js';

interface Authority {
  id: string;
  authority: string;
  retention_months: number;
  retention_set: boolean;
}
interface ExportLog {
  by: string;
  area_id: string;
  from: string;
  to: string;
  format: string;
  bookings: number;
  reason: string;
  at: string;
}
interface RecordShown {
  ref: string;
  received_london: string;
  channel: string;
  taken_by: string;
  passenger_name: string;
  pickup: string;
  pickup_london: string;
  destination: string;
  fare_quoted_pence: number;
  driver_name: string | null;
  driver_licence_number: string | null;
  vehicle_registration: string | null;
  allocated_london: string;
  dispatched_by: string | null;
  allocations: number;
  subcontracted_from: string | null;
  subcontracted_to: string | null;
  outcome: string;
}

const staff = keyConsole({
  storageKey: 'directTaxiStaffKey',
  consoleId: 'console',
  invalid: 'That staff key is not valid.',
});

const londonDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(d);

function query(format: string): string {
  const p = new URLSearchParams({
    authority: $select('authority').value,
    from: $input('from').value,
    to: $input('to').value,
    format,
    reason: $input('reason').value.trim(),
  });
  return `/api/ops/records?${p.toString()}`;
}

/** One record's cells, as the table's columns read. */
function recordCells(r: RecordShown): string[] {
  const driver = r.driver_name
    ? `${r.driver_name}, ${r.driver_licence_number ?? 'no licence number on file'}, ${r.vehicle_registration ?? 'no registration on file'}`
    : '—';
  const sub = [r.subcontracted_from && `from ${r.subcontracted_from}`, r.subcontracted_to && `to ${r.subcontracted_to}`]
    .filter(Boolean)
    .join('; ');
  return [
    r.ref,
    r.received_london,
    `${r.channel}: ${r.taken_by}`,
    r.passenger_name,
    `${r.pickup}, ${r.pickup_london}`,
    r.destination,
    pounds(r.fare_quoted_pence),
    driver + (r.allocations > 1 ? ` (${r.allocations} allocations)` : ''),
    r.driver_name ? `${r.allocated_london}, ${r.dispatched_by ?? ''}` : '—',
    sub || '—',
    r.outcome,
  ];
}

const load = async () => {
  const a = await staff.api.json<{ authorities: Authority[]; exports: ExportLog[] }>(
    'GET',
    '/api/ops/records/authorities',
  );
  const select = $select('authority');
  const chosen = select.value;
  select.replaceChildren(
    ...a.authorities.map((x) => {
      const o = el('option', x.authority);
      o.value = x.id;
      return o;
    }),
  );
  if (chosen) select.value = chosen;
  $('retention-rows').replaceChildren(
    ...a.authorities.map((x) => {
      const tr = el('tr');
      tr.append(
        el('td', x.authority),
        el('td', `${x.retention_months} months${x.retention_set ? '' : ' (the default)'}`),
      );
      return tr;
    }),
  );
  $('export-rows').replaceChildren(
    ...a.exports.map((e) => {
      const tr = el('tr');
      for (const v of [
        londonTime(e.at),
        e.by,
        e.area_id,
        `${e.from} to ${e.to}`,
        e.format,
        String(e.bookings),
        e.reason,
      ])
        tr.append(el('td', v));
      return tr;
    }),
  );
};

const today = londonDay(new Date());
$input('from').value = today;
$input('to').value = today;

$form('export-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const format = $select('format').value;
  const name = `booking-records-${$select('authority').value}-${$input('from').value}-to-${$input('to').value}.${format}`;
  staff.api
    .send('GET', query(format))
    .then(async (res) => {
      $('count').textContent = `${res.headers.get('x-booking-count') ?? '?'} bookings exported.`;
      await download(res, name);
      await load();
    })
    .catch(sayError);
});

$button('show').addEventListener('click', () => {
  if (!$form('export-form').reportValidity()) return;
  staff.api
    .json<{ bookings: RecordShown[] }>('GET', query('json'))
    .then(async ({ bookings }) => {
      $('record-rows').replaceChildren(
        ...bookings.map((r) => {
          const tr = el('tr');
          for (const v of recordCells(r)) tr.append(el('td', v));
          return tr;
        }),
      );
      $('shown').hidden = false;
      $('count').textContent = `${bookings.length} bookings.`;
      say('', true);
      await load();
    })
    .catch(sayError);
});

$button('print').addEventListener('click', () => window.print());

staff.start(load);
