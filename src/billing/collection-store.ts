import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/sql.js';
import type { CollectionStatus, InvoiceAccountKind, InvoiceKey } from '../model/billing.js';

// SQL of invoice collection (migration 00029): one row per invoice being collected, owned by its
// workflow invoice-collection:<kind>:<id>:<Monday>; and the provider's webhook events by provider
// and id (migration 00033). Every write is safe to repeat: paid and overdue are set only from the
// state before them.

/** The pool, or the webhook's transaction (src/billing/invoices.ts). */
type Query = Sql | TransactionSql;

export interface CollectionRecord {
  account: InvoiceAccountKind;
  accountId: string;
  weekStart: string;
  totalPence: number;
  status: CollectionStatus;
  provider: string;
  providerRef: string | null;
  payUrl: string | null;
  payUrlExpiresAt: string | null;
  remindersSent: number;
  overdueAt: string | null;
  paidAt: string | null;
  paidAmountPence: number | null;
  paidEventId: string | null;
}

interface Row {
  account_kind: InvoiceAccountKind;
  account_id: string;
  week_start: Date;
  total_pence: number;
  status: CollectionStatus;
  provider: string;
  provider_ref: string | null;
  pay_url: string | null;
  pay_url_expires_at: Date | null;
  reminders_sent: number;
  overdue_at: Date | null;
  paid_at: Date | null;
  paid_amount_pence: number | null;
  paid_event_id: string | null;
}

export const toCollection = (r: Row): CollectionRecord => ({
  account: r.account_kind,
  accountId: r.account_id,
  weekStart: r.week_start.toISOString(),
  totalPence: r.total_pence,
  status: r.status,
  provider: r.provider,
  providerRef: r.provider_ref,
  payUrl: r.pay_url,
  payUrlExpiresAt: r.pay_url_expires_at?.toISOString() ?? null,
  remindersSent: r.reminders_sent,
  overdueAt: r.overdue_at?.toISOString() ?? null,
  paidAt: r.paid_at?.toISOString() ?? null,
  paidAmountPence: r.paid_amount_pence,
  paidEventId: r.paid_event_id,
});

export async function openCollection(
  sql: Sql,
  k: InvoiceKey,
  totalPence: number,
  provider: string,
): Promise<CollectionRecord> {
  await sql`
    insert into invoice_collections (account_kind, account_id, week_start, total_pence, status, provider)
    values (${k.account}, ${k.accountId}, ${k.weekStart}, ${totalPence}, 'unpaid', ${provider})
    on conflict do nothing`;
  const found = await findCollection(sql, k);
  if (!found) throw new Error(`collection of ${k.account} ${k.accountId} week ${k.weekStart} vanished`);
  return found;
}

export async function findCollection(sql: Query, k: InvoiceKey): Promise<CollectionRecord | null> {
  const [row] = await sql<Row[]>`
    select * from invoice_collections where account_kind = ${k.account} and account_id = ${k.accountId} and week_start = ${k.weekStart}`;
  return row ? toCollection(row) : null;
}

export async function collectionsOf(
  sql: Sql,
  account: InvoiceAccountKind,
  accountId: string,
  weekStarts: Date[],
): Promise<Map<string, CollectionRecord>> {
  if (weekStarts.length === 0) return new Map();
  const rows = await sql<Row[]>`
    select * from invoice_collections where account_kind = ${account} and account_id = ${accountId} and week_start in ${sql(weekStarts)}`;
  return new Map(rows.map((r) => [r.week_start.toISOString(), toCollection(r)]));
}

export async function saveCollectionLink(
  sql: Sql,
  k: InvoiceKey,
  l: { providerRef: string; payUrl: string; expiresAt: string | null },
): Promise<void> {
  await sql`
    update invoice_collections set provider_ref = ${l.providerRef}, pay_url = ${l.payUrl}, pay_url_expires_at = ${l.expiresAt}, updated_at = now()
     where account_kind = ${k.account} and account_id = ${k.accountId} and week_start = ${k.weekStart} and status <> 'paid'`;
}

/** The reminder count only grows: a retried reminder sets the same number. */
export async function recordReminder(sql: Sql, k: InvoiceKey, n: number): Promise<void> {
  await sql`
    update invoice_collections set reminders_sent = greatest(reminders_sent, ${n}), updated_at = now()
     where account_kind = ${k.account} and account_id = ${k.accountId} and week_start = ${k.weekStart}`;
}

/** Unpaid becomes overdue once; true when this call made it so. */
export async function markOverdue(sql: Sql, k: InvoiceKey): Promise<boolean> {
  const rows = await sql`
    update invoice_collections set status = 'overdue', overdue_at = now(), updated_at = now()
     where account_kind = ${k.account} and account_id = ${k.accountId} and week_start = ${k.weekStart} and status = 'unpaid'
    returning account_id`;
  return rows.length > 0;
}

/** Paid once: only an unpaid or overdue invoice is marked, so a second event changes nothing. True when this call marked it. */
export async function markPaid(
  sql: Query,
  k: InvoiceKey,
  p: { eventId: string; amountPence: number; providerRef: string },
): Promise<boolean> {
  const rows = await sql`
    update invoice_collections
       set status = 'paid', paid_at = now(), paid_amount_pence = ${p.amountPence}, paid_event_id = ${p.eventId},
           provider_ref = coalesce(provider_ref, ${p.providerRef}), updated_at = now()
     where account_kind = ${k.account} and account_id = ${k.accountId} and week_start = ${k.weekStart}
       and status <> 'paid' and total_pence <= ${p.amountPence}
    returning account_id`;
  return rows.length > 0;
}

export async function recordPaymentFailure(sql: Query, k: InvoiceKey, eventId: string): Promise<void> {
  await sql`
    update invoice_collections set last_failure = ${eventId}, updated_at = now()
     where account_kind = ${k.account} and account_id = ${k.accountId} and week_start = ${k.weekStart} and status <> 'paid'`;
}

/** What a stored webhook event did: paid its invoice, paid less than its total, or failed. */
export type StoredEventOutcome = 'paid' | 'short' | 'failed';

/** Whether this provider's event was stored before: a replay. */
export async function webhookEventSeen(sql: Query, provider: string, id: string): Promise<boolean> {
  const rows = await sql`select 1 from billing_webhook_events where provider = ${provider} and id = ${id}`;
  return rows.length > 0;
}

/** The events stored for an invoice: its paying one (0 or 1) and the others. */
export async function storedWebhookEvents(
  sql: Query,
  provider: string,
  invoiceReference: string,
): Promise<{ paid: number; others: number }> {
  const [row] = await sql<{ paid: number; others: number }[]>`
    select count(*) filter (where outcome = 'paid')::integer as paid, count(*) filter (where outcome <> 'paid')::integer as others
      from billing_webhook_events where provider = ${provider} and invoice_key = ${invoiceReference}`;
  return row ?? { paid: 0, others: 0 };
}

export async function storeWebhookEvent(
  sql: Query,
  e: { provider: string; id: string; invoiceReference: string; outcome: StoredEventOutcome },
): Promise<void> {
  await sql`insert into billing_webhook_events (provider, id, invoice_key, outcome) values (${e.provider}, ${e.id}, ${e.invoiceReference}, ${e.outcome})`;
}

export interface OpenInvoiceRow extends CollectionRecord {
  name: string;
  phone: string | null;
}

/** Invoices not paid (unpaid, overdue, or either), oldest first, with whom they are owed by. */
export async function openCollections(
  sql: Sql,
  status: 'unpaid' | 'overdue' | 'open',
  limit = 200,
): Promise<OpenInvoiceRow[]> {
  const statuses = status === 'open' ? ['unpaid', 'overdue'] : [status];
  const rows = await sql<(Row & { name: string | null; phone: string | null })[]>`
    select c.*, coalesce(d.name, p.name) as name, d.phone
      from invoice_collections c
      left join drivers d on c.account_kind = 'driver' and d.id = c.account_id
      left join partners p on c.account_kind = 'partner' and p.id = c.account_id
     where c.status in ${sql(statuses)}
     order by c.week_start, c.account_kind, c.account_id
     limit ${limit}`;
  return rows.map((r) => ({ ...toCollection(r), name: r.name ?? r.account_id, phone: r.phone }));
}

export async function contactOf(
  sql: Sql,
  k: InvoiceKey,
): Promise<{ name: string; phone: string | null; email: string | null } | null> {
  if (k.account === 'driver') {
    const [d] = await sql<
      { name: string; phone: string; email: string | null }[]
    >`select name, phone, email from drivers where id = ${k.accountId}`;
    return d ?? null;
  }
  const [p] = await sql<{ name: string }[]>`select name from partners where id = ${k.accountId}`;
  return p ? { name: p.name, phone: null, email: null } : null;
}
