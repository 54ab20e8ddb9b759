// What staff type into the consoles' search boxes, read as a search (issue 24, item 4): a UK phone
// as written at home is the stored E.164, part of a number matches either way it is typed, and a
// reference is found from its start in any case.
import { describe, expect, it } from 'vitest';
import { driverSearch } from '../../../src/ops/driver-list.js';
import { bookingSearch } from '../../../src/ops/view.js';

describe('driver search', () => {
  it('reads a phone typed at home or internationally as the stored E.164, and its digits', () => {
    for (const typed of ['07400 123456', '(07400) 123-456', '+44 7400 123456', '07400123456']) {
      expect(driverSearch(typed)).toMatchObject({ phone: '+447400123456' });
    }
    expect(driverSearch('07400 123456')!.digits).toEqual(['07400123456', '447400123456']);
    expect(driverSearch('123456')).toEqual({ text: '123456', phone: null, digits: ['123456'] });
    // Drama numbers are test drivers' numbers: still found.
    expect(driverSearch('07700 900123')).toMatchObject({ phone: '+447700900123' });
  });

  it('reads words as words, and nothing as no search', () => {
    expect(driverSearch('  Jo Bloggs ')).toEqual({ text: 'Jo Bloggs', phone: null, digits: [] });
    expect(driverSearch('Driver 077')).toEqual({ text: 'Driver 077', phone: null, digits: [] });
    expect(driverSearch('   ')).toBeNull();
    expect(driverSearch(undefined)).toBeNull();
  });
});

describe('booking search', () => {
  it('finds a reference from its start in any case, a phone as typed, and a jobRef as sent', () => {
    expect(bookingSearch('tx12ab')).toEqual({ ref: 'TX12AB', phone: null, jobRef: 'tx12ab' });
    expect(bookingSearch('07400 123456')).toEqual({ ref: null, phone: '+447400123456', jobRef: '07400 123456' });
    expect(bookingSearch('P-7')).toEqual({ ref: null, phone: null, jobRef: 'P-7' });
    expect(bookingSearch('')).toBeNull();
  });
});
