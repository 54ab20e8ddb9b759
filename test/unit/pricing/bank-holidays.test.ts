import { describe, expect, it } from 'vitest';
import { divisionForCountry, loadBankHolidays } from '../../../src/pricing/index.js';

const calendar = loadBankHolidays();

describe('bank holidays', () => {
  it('uses the right nation', () => {
    expect(calendar.holidayOn('scotland', '2026-11-30')).toMatch(/St Andrew/);
    expect(calendar.holidayOn('england-and-wales', '2026-11-30')).toBeNull();
    expect(calendar.holidayOn('scotland', '2026-01-02')).toBe('2nd January');
    expect(calendar.holidayOn('england-and-wales', '2026-01-02')).toBeNull();
    expect(calendar.holidayOn('scotland', '2026-08-03')).toBe('Summer bank holiday');
    expect(calendar.holidayOn('england-and-wales', '2026-08-31')).toBe('Summer bank holiday');
    expect(calendar.holidayOn('england-and-wales', '2026-04-06')).toBe('Easter Monday');
    expect(calendar.holidayOn('scotland', '2026-04-06')).toBeNull();
    expect(calendar.holidayOn('northern-ireland', '2026-03-17')).toMatch(/St Patrick/);
  });

  it('includes substitute days', () => {
    // Boxing Day 2026 is a Saturday; the substitute is Monday 28 December
    expect(calendar.holidayOn('england-and-wales', '2026-12-28')).toBe('Boxing Day');
    expect(calendar.holidayOn('england-and-wales', '2026-12-25')).toBe('Christmas Day');
  });

  it('maps countries to divisions', () => {
    expect(divisionForCountry('England')).toBe('england-and-wales');
    expect(divisionForCountry('Wales')).toBe('england-and-wales');
    expect(divisionForCountry('Scotland')).toBe('scotland');
    expect(divisionForCountry('Northern Ireland')).toBe('northern-ireland');
    expect(divisionForCountry('Jersey')).toBe('england-and-wales');
    expect(divisionForCountry(null)).toBe('england-and-wales');
  });

  it('knows its coverage', () => {
    expect(calendar.coverage('england-and-wales')).toEqual({ first: '2025-01-01', last: '2028-12-26' });
  });
});
