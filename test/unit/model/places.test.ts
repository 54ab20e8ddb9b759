import { describe, expect, it } from 'vitest';
import { placeForPeople, tidyTyped } from '../../../src/model/places.js';

describe('the address as typed (issue 35)', () => {
  it.each([
    ['221B Baker Street, London NW1 6XE', '221B Baker Street, London NW1 6XE'],
    ['221b baker st', '221B Baker St'],
    ['  1   deansgate ,  manchester ', '1 Deansgate, Manchester'],
    ['flat 3, 12 church of st mary lane', 'Flat 3, 12 Church of St Mary Lane'],
    ['MANCHESTER AIRPORT T2', 'Manchester Airport T2'],
    ['outside the co-op, nw16xe', 'Outside the Co-Op, NW1 6XE'],
    ["o'neill's bar, le15 6rh", "O'Neill's Bar, LE15 6RH"],
    // Mixed case is the passenger's own: only spacing and the postcode are tidied.
    ['The BBC, W1A 1aa', 'The BBC, W1A 1AA'],
  ])('tidies %j to %j', (typed, tidied) => {
    expect(tidyTyped(typed)).toBe(tidied);
  });

  it('shows the house number beside the place it was priced to', () => {
    expect(placeForPeople('221B Baker Street, London NW1 6XE', { label: 'NW1 6XE, Camden' })).toBe(
      '221B Baker Street, London NW1 6XE (NW1 6XE, Camden)',
    );
    expect(placeForPeople('manchester airport t2', { label: 'Manchester Airport Terminal 2' })).toBe(
      'Manchester Airport T2 (Manchester Airport Terminal 2)',
    );
  });

  it('says a place once when the words add nothing, and the place alone when nothing was typed', () => {
    expect(placeForPeople('manchester piccadilly', { label: 'Manchester Piccadilly' })).toBe('Manchester Piccadilly');
    expect(placeForPeople('Piccadilly', { label: 'Manchester Piccadilly' })).toBe('Manchester Piccadilly');
    expect(placeForPeople('14 Wilmslow Road, Rusholme', { label: 'Rusholme' })).toBe('14 Wilmslow Road, Rusholme');
    expect(placeForPeople(null, { label: 'Hexham' })).toBe('Hexham');
    expect(placeForPeople('   ', { label: 'Hexham' })).toBe('Hexham');
  });
});
