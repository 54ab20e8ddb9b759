import type { Sql } from '../db/sql.js';
import type { InvoiceLine } from '../model/billing.js';
import { insertLines, invoiceLines } from './subscription-store.js';

// Partners' weekly invoices (migration 00029): the SMS pass-through of spec 8 for partners. A
// partner's charge is the texts the service sent about its jobs to anyone but a driver (their
// passengers); a text to a driver is on that driver's invoice. Written once per partner and week,
// with its lines, by the partner billing workflow; never changed.

export interface PartnerInvoice {
  partnerId: string;
  weekStart: string;
  weekEnd: string;
  smsCount: number;
  smsPence: number;
  totalPence: number;
  lines: InvoiceLine[];
}

/**
 * Partners whose jobs had SMS sent in the week, and how many. Sign-in codes and invoice reminders
 * never count, nor claim links: a claim link is texted because someone else asked for the
 * partner's trip, so the service pays for it, never the partner (docs/billing.md, "Who pays for a text").
 */
export async function partnersSmsInWeek(
  sql: Sql,
  weekStart: string,
  weekEnd: string,
): Promise<Array<{ partnerId: string; smsCount: number }>> {
  const rows = await sql<{ partner_id: string; n: number }[]>`
    select b.partner_id, count(*)::integer as n
      from outbox o join bookings b on b.ref = o.booking_ref
     where b.partner_id is not null and o.channel = 'sms' and o.sent_at >= ${weekStart} and o.sent_at < ${weekEnd}
       and (o.purpose is null or o.purpose not in ('sign_in_code', 'invoice_reminder', 'claim_link'))
       and not exists (select 1 from drivers d where d.phone = o.recipient)
     group by b.partner_id
     order by b.partner_id`;
  return rows.map((r) => ({ partnerId: r.partner_id, smsCount: r.n }));
}

interface Row {
  partner_id: string;
  week_start: Date;
  week_end: Date;
  sms_count: number;
  sms_pence: number;
  total_pence: number;
}

/** Writes the partner's week unless written, and returns the one in force. */
export async function insertPartnerInvoice(sql: Sql, i: PartnerInvoice): Promise<PartnerInvoice> {
  await sql.begin(async (tx) => {
    const [written] = await tx`
      insert into partner_invoices (partner_id, week_start, week_end, sms_count, sms_pence, total_pence)
      values (${i.partnerId}, ${i.weekStart}, ${i.weekEnd}, ${i.smsCount}, ${i.smsPence}, ${i.totalPence})
      on conflict (partner_id, week_start) do nothing
      returning partner_id`;
    if (written) await insertLines(tx, 'partner', i.partnerId, i.weekStart, i.lines);
  });
  const [found] = await listPartnerInvoices(sql, i.partnerId, { weekStart: i.weekStart });
  if (!found) throw new Error(`invoice of partner ${i.partnerId} week ${i.weekStart} vanished`);
  return found;
}

/** The partner's invoices, newest first (or the one week asked for). */
export async function listPartnerInvoices(
  sql: Sql,
  partnerId: string,
  o: { weekStart?: string; limit?: number } = {},
): Promise<PartnerInvoice[]> {
  const rows = await sql<Row[]>`
    select * from partner_invoices
     where partner_id = ${partnerId} ${o.weekStart ? sql`and week_start = ${o.weekStart}` : sql``}
     order by week_start desc limit ${o.limit ?? 52}`;
  const lines = await invoiceLines(
    sql,
    'partner',
    partnerId,
    rows.map((r) => r.week_start),
  );
  return rows.map((r) => ({
    partnerId: r.partner_id,
    weekStart: r.week_start.toISOString(),
    weekEnd: r.week_end.toISOString(),
    smsCount: r.sms_count,
    smsPence: r.sms_pence,
    totalPence: r.total_pence,
    lines: lines.get(r.week_start.toISOString()) ?? [],
  }));
}
