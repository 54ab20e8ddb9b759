// How the pages' scripts say numbers, codes and times (the server's own: src/pages/format.ts).

/** Pence as pounds: 4550 is "£45.50". */
export function pounds(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}

/** A code in words: "en_route" is "en route"; nothing is "—". */
export function words(code: string | null | undefined): string {
  return code ? code.replace(/_/g, ' ') : '—';
}

/** An instant as London's wall clock, e.g. "Fri 3 Jul, 15:30" (with `seconds`: "15:30:05"); none is "—". */
export function londonTime(iso: string | null | undefined, opts: { seconds?: boolean } = {}): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString('en-GB', {
    timeZone: 'Europe/London',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    ...(opts.seconds ? { second: '2-digit' } : {}),
  });
}

/** The London date of an instant, e.g. "Mon 29 Jun 2026" (a week by its Monday). */
export function londonDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    timeZone: 'Europe/London',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}

/** "2026-07-03T14:30:00Z" as "2026-07-03 14:30": a record's time as stored (UTC). */
export function isoMinute(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/** A recorded or sent value as staff read it. */
export function recordText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (v === true) return 'yes';
  if (v === false) return 'no';
  return typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);
}
