// Which numbers the service texts at all (src/notify/served-numbers.ts): UK mobiles, not landlines,
// premium-rate, personal or foreign numbers; the same answer however often a number is asked about.
import { describe, expect, it } from 'vitest';
import { servedMobile } from '../../../src/notify/served-numbers.js';

const UK = ['GB', 'GG', 'IM', 'JE'];

describe('servedMobile', () => {
  it('texts UK mobiles, Jersey ones too, and nothing that costs more or is not a mobile', () => {
    expect(servedMobile('+447400123456', UK)).toEqual({ ok: true });
    expect(servedMobile('+447797123456', UK)).toEqual({ ok: true }); // Jersey mobile
    const landline = servedMobile('+442079460958', UK);
    expect(landline.ok).toBe(false);
    expect(!landline.ok && landline.reason).toMatch(/not a landline/);
    expect(servedMobile('+449098790000', UK).ok).toBe(false); // premium rate
    expect(servedMobile('+447012345678', UK).ok).toBe(false); // personal numbering
    const french = servedMobile('+33612345678', UK, { what: 'codes' });
    expect(french).toEqual({ ok: false, reason: 'we can only text codes to mobile numbers in the UK' });
    expect(servedMobile('+33612345678', [...UK, 'FR'])).toEqual({ ok: true });
    expect(servedMobile('+4474001', UK).ok).toBe(false); // too short to be a number
  });

  it('gives the same answer the hundredth time a number is asked about', () => {
    for (let i = 0; i < 100; i++) {
      expect(servedMobile('+447400123456', UK)).toEqual({ ok: true });
      expect(servedMobile('+442079460958', UK).ok).toBe(false);
    }
  });

  it('counts drama mobiles as served only where the deployment says so', () => {
    expect(servedMobile('+447700900123', UK).ok).toBe(false);
    expect(servedMobile('+447700900123', UK, { dramaRange: true })).toEqual({ ok: true });
  });
});
