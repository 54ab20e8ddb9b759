// A day typed into an ops form (a licence's or a certificate's expiry) is a real one, or a 400:
// never a 500 (the OpenAPI fuzzer found "0000-00-00" throwing inside the check).
import { describe, expect, it } from 'vitest';
import { calendarDate } from '../../../src/schemas/common.js';

describe('calendarDate', () => {
  it('takes real days and refuses the rest without throwing', () => {
    for (const d of ['2027-03-31', '2028-02-29', '2000-01-01']) expect(calendarDate.safeParse(d).success, d).toBe(true);
    for (const d of [
      '0000-00-00',
      '2027-02-30',
      '2027-13-01',
      '2027-00-10',
      '1999-12-31',
      '2027-3-31',
      '31/03/2027',
      '',
    ])
      expect(calendarDate.safeParse(d).success, d).toBe(false);
  });
});
