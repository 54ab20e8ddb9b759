import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/sql.js';
import type { Invoice, InvoiceCharge, InvoiceLine, SubscriptionRecord, TrialExtension } from '../model/billing.js';

// The subscription tables (migration 00006): the driver's subscription row, trial extensions and
// weekly invoices, plus the two weekly figures billing reads (earnings and SMS). The workflow
// subscription:<driver id> owns every write; each is safe to repeat.

export async function upsertSubscription(sql: Sql, s: SubscriptionRecord): Promise<void> {
  await sql`
    insert into driver_subscriptions (driver_id, tier, approved_at, trial_days, trial_extended_days, state)
    values (${s.driverId}, ${s.tier}, ${s.approvedAt}, ${s.trialDays}, ${s.trialExtendedDays}, ${s.state})
    on conflict (driver_id) do update
       set tier = excluded.tier, approved_at = excluded.approved_at, trial_days = excluded.trial_days,
           trial_extended_days = excluded.trial_extended_days, state = excluded.state, updated_at = now()`;
}

/** Records the extension once and sets (never adds to) the subscription's extended days. */
export async function recordTrialExtension(sql: Sql, e: TrialExtension): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      insert into trial_extensions (id, driver_id, days, by, reason, at)
      values (${e.id}, ${e.driverId}, ${e.days}, ${e.by}, ${e.reason}, ${e.at})
      on conflict (id) do nothing`;
    await tx`
      update driver_subscriptions set trial_extended_days = ${e.totalExtendedDays}, updated_at = now()
       where driver_id = ${e.driverId}`;
  });
}

/**
 * The driver's earnings for the fee line (spec 8: 20 GBP in weeks above 500 GBP): the trips they
 * completed that week, each at its fare, or at what the payment records in force say was paid
 * when that is more (a tip, an extra stop settled on the day). What a driver records can raise a
 * trip's figure but never lower it below the fare: a 0 GBP or 1p settlement, or none, kept busy
 * weeks under the line. Only staff can: when a record in force for the trip was made by ops (a
 * correction after the passenger did not pay, say), its amount is the trip's figure.
 */
export async function weekEarningsPence(
  sql: Sql,
  driverId: string,
  weekStart: string,
  weekEnd: string,
): Promise<number> {
  const [row] = await sql<{ pence: number }[]>`
    select coalesce(sum(case when p.by_ops then p.paid else greatest(b.fare_pence, coalesce(p.paid, 0)) end), 0)::integer as pence
      from bookings b
      left join lateral (
        select sum(e.amount_pence)::integer as paid, bool_or(e.recorded_by = 'ops') as by_ops
          from effective_payment_records e where e.booking_ref = b.ref
      ) p on true
     where b.driver_id = ${driverId} and b.status = 'completed'
       and b.completed_at >= ${weekStart} and b.completed_at < ${weekEnd}`;
  return row?.pence ?? 0;
}

/**
 * SMS the service sent the driver that week (job cards, cancellations and every other text to the
 * driver's phone), counted by the driver's current phone as the outbox's recipient since the
 * outbox names no driver. Only messages actually sent count: a row without sent_at is a failed or
 * unfinished attempt. WhatsApp and email are free, and sign-in codes are never billed: anyone can
 * ask for one to any driver's phone. Nor are the service's own reminders to pay its invoice.
 * A job card is billed only for a job the driver accepted: a card for a job they did not take (a
 * stranger's booking nobody took, one another driver won) was caused by whoever booked it, and the
 * service pays for it (docs/billing.md, "Who pays for a text").
 */
export async function weekSmsCount(sql: Sql, driverId: string, weekStart: string, weekEnd: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::integer as n
      from outbox o join drivers d on o.recipient = d.phone
     where d.id = ${driverId} and o.channel = 'sms' and o.sent_at >= ${weekStart} and o.sent_at < ${weekEnd}
       and (o.purpose is null or o.purpose not in ('sign_in_code', 'invoice_reminder', 'job_card')
            or (o.purpose = 'job_card' and exists (
                  select 1 from offers f where f.booking_ref = o.booking_ref and f.driver_id = d.id and f.status = 'accepted')))`;
  return row?.n ?? 0;
}

/**
 * Completed jobs from the named third-party job source (spec 8: fees for jobs originating from one
 * named source) the driver completed in the week, counted like earnings: by `completed_at`.
 */
export async function weekThirdPartyJobs(
  sql: Sql,
  driverId: string,
  source: string,
  weekStart: string,
  weekEnd: string,
): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::integer as n from bookings
     where driver_id = ${driverId} and status = 'completed' and partner_id = ${source}
       and completed_at >= ${weekStart} and completed_at < ${weekEnd}`;
  return row?.n ?? 0;
}

/**
 * The card payments of the trips the driver completed in the week (one amount per trip, from the
 * payment records in force whose method is card): the card rail's processor fee is charged on
 * each. Cash, the driver's own payment link and bank transfers carry no fee.
 */
export async function weekCardPayments(
  sql: Sql,
  driverId: string,
  weekStart: string,
  weekEnd: string,
): Promise<number[]> {
  const rows = await sql<{ pence: number }[]>`
    select sum(e.amount_pence)::integer as pence
      from bookings b join effective_payment_records e on e.booking_ref = b.ref
     where b.driver_id = ${driverId} and b.status = 'completed' and e.method = 'card'
       and b.completed_at >= ${weekStart} and b.completed_at < ${weekEnd}
     group by b.ref
     order by b.ref`;
  return rows.map((r) => r.pence);
}

interface InvoiceRow {
  driver_id: string;
  week_start: Date;
  week_end: Date;
  earnings_pence: number;
  fee_pence: number;
  sms_count: number;
  sms_pence: number;
  third_party_jobs: number;
  third_party_pence: number;
  card_trips: number;
  card_pence: number;
  total_pence: number;
  status: 'billed' | 'free';
}

interface LineRow {
  account_id: string;
  week_start: Date;
  kind: InvoiceLine['kind'];
  quantity: number;
  unit_pence: number | null;
  amount_pence: number;
  description: string;
}

const toLine = (l: LineRow): InvoiceLine => ({
  kind: l.kind,
  quantity: l.quantity,
  unitPence: l.unit_pence,
  amountPence: l.amount_pence,
  description: l.description,
});

const toInvoice = (r: InvoiceRow, lines: InvoiceLine[]): Invoice => ({
  driverId: r.driver_id,
  weekStart: r.week_start.toISOString(),
  weekEnd: r.week_end.toISOString(),
  earningsPence: r.earnings_pence,
  feePence: r.fee_pence,
  smsCount: r.sms_count,
  smsPence: r.sms_pence,
  thirdPartyJobs: r.third_party_jobs,
  thirdPartyPence: r.third_party_pence,
  cardTrips: r.card_trips,
  cardPence: r.card_pence,
  totalPence: r.total_pence,
  status: r.status,
  lines,
});

/** The invoices' lines, in the order they were written. */
export async function invoiceLines(
  sql: Sql,
  account: 'driver' | 'partner',
  accountId: string,
  weekStarts: Date[],
): Promise<Map<string, InvoiceLine[]>> {
  const byWeek = new Map<string, InvoiceLine[]>();
  if (weekStarts.length === 0) return byWeek;
  const rows = await sql<LineRow[]>`
    select account_id, week_start, kind, quantity, unit_pence, amount_pence, description from invoice_lines
     where account_kind = ${account} and account_id = ${accountId} and week_start in ${sql(weekStarts)}
     order by week_start, position`;
  for (const r of rows) {
    const key = r.week_start.toISOString();
    byWeek.set(key, [...(byWeek.get(key) ?? []), toLine(r)]);
  }
  return byWeek;
}

async function withLines(sql: Sql, rows: InvoiceRow[]): Promise<Invoice[]> {
  if (rows.length === 0) return [];
  const lines = await invoiceLines(
    sql,
    'driver',
    rows[0]!.driver_id,
    rows.map((r) => r.week_start),
  );
  return rows.map((r) => toInvoice(r, lines.get(r.week_start.toISOString()) ?? []));
}

/**
 * Writes the week's invoice and its lines unless it exists, and returns the one in force: a retried
 * or concurrent run gets the first run's invoice back, never a second one. The lines are written
 * in the same transaction as the invoice, so an invoice never lacks them.
 */
export async function insertInvoice(
  sql: Sql,
  i: { driverId: string; weekStart: string; weekEnd: string; earningsPence: number; smsCount: number } & InvoiceCharge,
): Promise<Invoice> {
  await sql.begin(async (tx) => {
    const [written] = await tx`
      insert into driver_invoices (driver_id, week_start, week_end, earnings_pence, fee_pence, sms_count, sms_pence,
                                   third_party_jobs, third_party_pence, card_trips, card_pence, total_pence, status)
      values (${i.driverId}, ${i.weekStart}, ${i.weekEnd}, ${i.earningsPence}, ${i.feePence}, ${i.smsCount}, ${i.smsPence},
              ${i.thirdPartyJobs}, ${i.thirdPartyPence}, ${i.cardTrips}, ${i.cardPence}, ${i.totalPence}, ${i.status})
      on conflict (driver_id, week_start) do nothing
      returning driver_id`;
    if (written) await insertLines(tx, 'driver', i.driverId, i.weekStart, i.lines);
  });
  const invoice = await findInvoice(sql, i.driverId, i.weekStart);
  if (!invoice) throw new Error(`invoice for driver ${i.driverId} week ${i.weekStart} vanished`);
  return invoice;
}

export async function insertLines(
  sql: Sql | TransactionSql,
  account: 'driver' | 'partner',
  accountId: string,
  weekStart: string,
  lines: InvoiceLine[],
): Promise<void> {
  for (const [position, l] of lines.entries()) {
    await sql`
      insert into invoice_lines (account_kind, account_id, week_start, position, kind, quantity, unit_pence, amount_pence, description)
      values (${account}, ${accountId}, ${weekStart}, ${position}, ${l.kind}, ${l.quantity}, ${l.unitPence}, ${l.amountPence}, ${l.description})`;
  }
}

export async function findInvoice(sql: Sql, driverId: string, weekStart: string): Promise<Invoice | null> {
  const rows = await sql<InvoiceRow[]>`
    select * from driver_invoices where driver_id = ${driverId} and week_start = ${weekStart}`;
  return (await withLines(sql, rows))[0] ?? null;
}

/** The driver's weeks, newest first: paid and free alike. */
export async function listInvoices(sql: Sql, driverId: string, limit = 52): Promise<Invoice[]> {
  const rows = await sql<InvoiceRow[]>`
    select * from driver_invoices where driver_id = ${driverId} order by week_start desc limit ${limit}`;
  return withLines(sql, rows);
}
