// The officer's export as a spreadsheet reads it: no cell runs as a formula, quotes and commas stay
// inside their cell, London days become the right instants across the clock change, and a record
// shows the driver who holds the job last, with every allocation counted.
import { describe, expect, it } from 'vitest';
import { csvCell, londonDayRange, presentRecord, recordsCsv } from '../../../src/records/export.js';
import type { BookingRecordRow } from '../../../src/records/store.js';

const record = (over: Partial<BookingRecordRow> = {}): BookingRecordRow => ({
  ref: 'TXABCDEFGHIJ',
  area_id: 'manchester',
  received_at: new Date('2026-07-01T09:05:00Z'),
  channel: 'online',
  taken_by: 'the online booking service',
  passenger_name: 'Zoë Brontë',
  pickup: 'Flat 2, 221B Baker Street, London NW1 6XE',
  pickup_at: new Date('2026-07-01T10:00:00Z'),
  destination: 'Heathrow Terminal 5',
  fare_quoted_pence: 4550,
  fare_basis: 'tariff',
  subcontracted_from: null,
  needs: '',
  entries: [],
  ...over,
});

describe('booking record export', () => {
  it('keeps every cell that a spreadsheet would run as a formula as text', () => {
    for (const bad of ['=1+1', '+44 7400 123456', '-2', '@SUM(A1)', '\t=1', '\r=1'])
      expect(csvCell(bad)).toBe(`"'${bad.replace(/"/g, '""')}"`);
    expect(csvCell('Flat 2, "the annexe"')).toBe('"Flat 2, ""the annexe"""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(12)).toBe('"12"');
  });

  it('writes one row per booking, in London time, with the driver last allocated', () => {
    const r = record({
      entries: [
        {
          kind: 'allocated',
          at: new Date('2026-07-01T09:06:00Z'),
          driver_id: 'd1',
          driver_name: 'Grace Okafor',
          driver_licence_number: 'PH-1',
          driver_licensing_authority: 'manchester',
          vehicle_registration: 'MA26 ABC',
          dispatched_by: 'automatic dispatch (local drivers)',
          operator: null,
          operator_licence: null,
          detail: null,
        },
        {
          kind: 'released',
          at: new Date('2026-07-01T09:10:00Z'),
          driver_id: 'd1',
          driver_name: 'Grace Okafor',
          driver_licence_number: 'PH-1',
          driver_licensing_authority: 'manchester',
          vehicle_registration: 'MA26 ABC',
          dispatched_by: null,
          operator: null,
          operator_licence: null,
          detail: null,
        },
        {
          kind: 'allocated',
          at: new Date('2026-07-01T09:12:00Z'),
          driver_id: 'd2',
          driver_name: 'Tom Reilly',
          driver_licence_number: 'PH-2',
          driver_licensing_authority: 'manchester',
          vehicle_registration: 'MA26 XYZ',
          dispatched_by: "ops or a fleet's dispatcher",
          operator: null,
          operator_licence: null,
          detail: null,
        },
      ],
    });
    const p = presentRecord(r);
    expect(p).toMatchObject({
      licensing_authority: 'Manchester City Council',
      received_london: '2026-07-01 10:05',
      pickup_london: '2026-07-01 11:00',
      driver_name: 'Tom Reilly',
      vehicle_registration: 'MA26 XYZ',
      allocated_london: '2026-07-01 10:12',
      allocations: 2,
      outcome: 'open',
    });
    const [head, line, end] = recordsCsv([p]).split('\r\n');
    expect(head).toMatch(/^"Booking ref","Licensing authority","Booking received \(London\)"/);
    expect(line).toContain('"Flat 2, 221B Baker Street, London NW1 6XE"');
    expect(line).toContain('"45.50"');
    expect(end).toBe('');
  });

  it('names each operator a booking was sub-contracted to with the licence it rested on', () => {
    const entry = {
      driver_id: null,
      driver_name: null,
      driver_licence_number: null,
      driver_licensing_authority: null,
      vehicle_registration: null,
      dispatched_by: null,
    };
    const p = presentRecord(
      record({
        entries: [
          {
            ...entry,
            kind: 'subcontracted',
            at: new Date('2026-07-01T09:06:00Z'),
            operator: 'Fleet B',
            operator_licence: 'Manchester City Council private hire operator licence PHO-0042, valid to 2027-03-31',
            detail: 'exchange fleet fleet-b',
          },
          {
            ...entry,
            kind: 'allocated',
            at: new Date('2026-07-01T09:20:00Z'),
            driver_id: 'd9',
            driver_name: 'Dana Fleet',
            operator: 'Tyne Cars',
            operator_licence: null,
            detail: null,
          },
        ],
      }),
    );
    expect(p.subcontracted_to).toBe(
      'Fleet B, Manchester City Council private hire operator licence PHO-0042, valid to 2027-03-31; Tyne Cars',
    );
  });

  it('reads London days as London midnights, on both sides of the clock change', () => {
    const { start, end } = londonDayRange('2026-03-29', '2026-10-25');
    expect(start.toISOString()).toBe('2026-03-29T00:00:00.000Z'); // GMT until 01:00
    expect(end.toISOString()).toBe('2026-10-26T00:00:00.000Z'); // GMT again after the 25th
    expect(londonDayRange('2026-07-01', '2026-07-01').start.toISOString()).toBe('2026-06-30T23:00:00.000Z');
    expect(() => londonDayRange('2026-07-02', '2026-07-01')).toThrow(/before/);
    expect(() => londonDayRange('yesterday', '2026-07-01')).toThrow(/dates/);
  });
});
