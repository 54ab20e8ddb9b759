import { describe, expect, it } from 'vitest';
import { displayPhone, normalisePhone } from '../../../src/passengers/phone.js';

describe('normalisePhone', () => {
  it.each([
    // UK numbers as people type them at home
    ['07400 123456', '+447400123456'],
    ['07400123456', '+447400123456'],
    ['(07400) 123 456', '+447400123456'],
    ['07400-123-456', '+447400123456'],
    ['07400.123.456', '+447400123456'],
    ['  07400 123 456  ', '+447400123456'],
    ['0\u00a07400\u00a0123456', '+447400123456'],
    ['020 7946 0958', '+442079460958'],
    ['(020) 7946-0958', '+442079460958'],
    ['07624 123456', '+447624123456'], // Isle of Man mobile, +44 too
    // ... and internationally
    ['+44 7400 123456', '+447400123456'],
    ['+447400123456', '+447400123456'],
    ['+44 (0)7400 123456', '+447400123456'],
    ['+44 (0) 7400 123 456', '+447400123456'],
    ['+44 07400 123456', '+447400123456'],
    ['0044 7400 123456', '+447400123456'],
    ['0044 (0)7400 123456', '+447400123456'],
    ['+44 20 7946 0958', '+442079460958'],
    ['  +44-20-7946-0958 ', '+442079460958'],
    ['+33 6 12 34 56 78', '+33612345678'],
    ['0033 6 12 34 56 78', '+33612345678'],
    ['+353 85 123 4567', '+353851234567'],
    // 555-01xx is fictional in the NANP but libphonenumber's metadata calls it valid; we follow it.
    ['+1 202 555 0143', '+12025550143'],
    ['+1 (202) 555-0143', '+12025550143'],
  ])('accepts %j as %s', (input, e164) => {
    expect(normalisePhone(input)).toEqual({ ok: true, e164 });
  });

  it.each([
    // No way to tell the country: never guessed
    ['7400 123456', /must start with 0 \(a UK number\) or with \+/],
    ['447400123456', /must start with 0 \(a UK number\) or with \+/],
    ['202 555 0143', /must start with 0 \(a UK number\) or with \+/],
    // The wrong length or range for the country
    ['07400 12345', /not a valid UK number/],
    ['074001234567', /not a valid UK number/],
    ['+44 7400 12345', /not a valid UK number/],
    ['+44 7400 1234567', /not a valid UK number/],
    ['0800', /not a valid UK number|not a phone number/],
    ['+33 6 12 34 56', /not a valid number for country code \+33/],
    ['+999 123 456', /not a phone number/],
    // Garbage
    ['+1 800 FLOWERS', /only digits/],
    ['+44 20 7946 0958 ext 12', /only digits/],
    ['44+7400123456', /only digits/],
    ['07400 123456 / 07400 654321', /only digits/],
    ['++447400123456', /only digits/],
    ['+44 7400 123456; drop table', /only digits/],
    ['٠٧٤٠٠١٢٣٤٥٦', /only digits/], // Arabic-Indic digits: not what Twilio takes
    ['', /empty/],
    ['   ', /empty/],
    // Control characters inside a number
    ['07400\t123456', /only digits/],
    ['07400\n123456', /only digits/],
    ['07400\u0000123456', /only digits/],
    ['07400\u200b123456', /only digits/],
    // Over-long
    [`+44 ${'1 '.repeat(20)}`, /longer than 32/],
    ['0'.repeat(33), /longer than 32/],
  ])('refuses %j', (input, reason) => {
    const result = normalisePhone(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
    // Every reason is a sentence about the phone number, so a caller can name its field.
    expect(!result.ok && result.reason).toMatch(/^phone number /);
  });

  it("refuses Ofcom's drama range, typed either way, which libphonenumber calls invalid, unless told to allow it", () => {
    for (const typed of ['+44 7700 900123', '07700 900123', '07700 900 123']) {
      const result = normalisePhone(typed);
      expect(!result.ok && result.reason).toMatch(/Ofcom reserves for drama/);
      expect(normalisePhone(typed, { allowDramaNumbers: true })).toEqual({ ok: true, e164: '+447700900123' });
    }
    expect(normalisePhone('07700 123456')).toEqual({ ok: true, e164: '+447700123456' });
  });
});

describe('displayPhone', () => {
  it.each([
    ['+447400123456', '07400 123456'],
    ['+442079460958', '020 7946 0958'],
    ['+447700900123', '07700 900123'],
    ['+33612345678', '+33 6 12 34 56 78'],
    ['+12025550143', '+1 202 555 0143'],
    ['not a number', 'not a number'],
  ])('shows %s as %s', (e164, shown) => {
    expect(displayPhone(e164)).toBe(shown);
  });
});
