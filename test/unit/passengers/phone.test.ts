import { describe, expect, it } from 'vitest';
import { normaliseInternationalPhone } from '../../../src/passengers/phone.js';

describe('normaliseInternationalPhone', () => {
  it.each([
    ['+44 7400 123456', '+447400123456'],
    ['+447400123456', '+447400123456'],
    ['0044 7400 123456', '+447400123456'],
    ['+44 (0)7400 123456', '+447400123456'],
    ['+44 20 7946 0958', '+442079460958'],
    ['  +44-20-7946-0958 ', '+442079460958'],
    ['+33 6 12 34 56 78', '+33612345678'],
    ['+353 85 123 4567', '+353851234567'],
    // 555-01xx is fictional in the NANP but libphonenumber's metadata calls it valid; we follow it.
    ['+1 202 555 0143', '+12025550143'],
  ])('accepts %j as %s', (input, e164) => {
    expect(normaliseInternationalPhone(input)).toEqual({ ok: true, e164 });
  });

  it('tells a caller who used a UK national number to use +44', () => {
    const result = normaliseInternationalPhone('07400 123456');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/international format.*\+44/);
  });

  it('asks for a country code when there is no leading + or 00', () => {
    const result = normaliseInternationalPhone('202 555 0143');
    expect(!result.ok && result.reason).toMatch(/starting with \+/);
  });

  it.each([
    ['+44 7400 12345', /not a valid number for country code \+44/],
    ['+44 7400 1234567', /not a valid number/],
    ['+1 800 FLOWERS', /only digits/],
    ['+44 20 7946 0958 ext 12', /only digits/],
    ['44+7400123456', /only digits/],
    ['+999 123 456', /not a number in international format/],
    ['', /empty/],
    [`+44 ${'1 '.repeat(20)}`, /longer than 32/],
  ])('rejects %j', (input, reason) => {
    const result = normaliseInternationalPhone(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });

  it("rejects Ofcom's drama range, which libphonenumber calls invalid, unless told to allow it", () => {
    const result = normaliseInternationalPhone('+44 7700 900123');
    expect(!result.ok && result.reason).toMatch(/Ofcom reserves for drama/);
    expect(normaliseInternationalPhone('+44 7700 900123', { allowDramaNumbers: true })).toEqual({ ok: true, e164: '+447700900123' });
    expect(normaliseInternationalPhone('+44 7700 123456')).toEqual({ ok: true, e164: '+447700123456' });
  });
});
