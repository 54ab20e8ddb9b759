// When a pre-booked trip starts looking for a driver (src/dispatch/advance.ts): the plain lead,
// hours ahead for airport runs and long trips, and from the evening before for the small hours,
// counted in London time across both clock changes.
import { describe, expect, it } from 'vitest';
import { dispatchLeadSeconds, type AdvanceSettings } from '../../../src/dispatch/advance.js';

const DEFAULTS: AdvanceSettings = {
  baseLeadSeconds: 15 * 60,
  advanceLeadSeconds: 3 * 3600,
  longTripMeters: 30_000,
  earlyBeforeHour: 7,
  eveningFromHour: 20,
};
const trip = (pickupAt: string, o: { pickupKind?: string; dropoffKind?: string; distanceMeters?: number } = {}) => ({
  pickupAt: new Date(pickupAt),
  pickupKind: o.pickupKind ?? 'street',
  dropoffKind: o.dropoffKind ?? 'street',
  distanceMeters: o.distanceMeters ?? 4_000,
});
const HOUR = 3600;

describe('advance allocation: when dispatch starts', () => {
  it('starts a town trip in the day 15 minutes before pickup', () => {
    expect(dispatchLeadSeconds(trip('2027-01-12T14:00:00Z'), DEFAULTS)).toBe(15 * 60);
  });

  it('starts airport runs and long trips three hours ahead, whichever end is the airport', () => {
    expect(dispatchLeadSeconds(trip('2027-01-12T14:00:00Z', { dropoffKind: 'airport' }), DEFAULTS)).toBe(3 * HOUR);
    expect(dispatchLeadSeconds(trip('2027-01-12T14:00:00Z', { pickupKind: 'airport' }), DEFAULTS)).toBe(3 * HOUR);
    expect(dispatchLeadSeconds(trip('2027-01-12T14:00:00Z', { distanceMeters: 30_000 }), DEFAULTS)).toBe(3 * HOUR);
    expect(dispatchLeadSeconds(trip('2027-01-12T14:00:00Z', { distanceMeters: 29_999 }), DEFAULTS)).toBe(15 * 60);
  });

  it('starts a pickup in the small hours at 20:00 London the evening before', () => {
    // 05:00 GMT Tuesday 12 January: from 20:00 GMT Monday, 9 hours ahead.
    expect(dispatchLeadSeconds(trip('2027-01-12T05:00:00Z'), DEFAULTS)).toBe(9 * HOUR);
    // 06:59 is still the small hours; 07:00 is not.
    expect(dispatchLeadSeconds(trip('2027-01-12T06:59:00Z'), DEFAULTS)).toBe(10 * HOUR + 59 * 60);
    expect(dispatchLeadSeconds(trip('2027-01-12T07:00:00Z'), DEFAULTS)).toBe(15 * 60);
    // 00:30: the evening before is four and a half hours ahead.
    expect(dispatchLeadSeconds(trip('2027-01-12T00:30:00Z'), DEFAULTS)).toBe(4.5 * HOUR);
  });

  it('counts the evening before in London time across the clock changes', () => {
    // Clocks go forward at 01:00 GMT on Sunday 28 March 2027: 05:00 BST is 04:00Z; 20:00 GMT Saturday is 20:00Z: 8 hours.
    expect(dispatchLeadSeconds(trip('2027-03-28T04:00:00Z'), DEFAULTS)).toBe(8 * HOUR);
    // Clocks go back at 01:00 GMT on Sunday 31 October 2027: 05:00 GMT is 05:00Z; 20:00 BST Saturday is 19:00Z: 10 hours.
    expect(dispatchLeadSeconds(trip('2027-10-31T05:00:00Z'), DEFAULTS)).toBe(10 * HOUR);
    // A summer pickup at 06:00 BST (05:00Z) on a Wednesday: from 20:00 BST (19:00Z) Tuesday.
    expect(dispatchLeadSeconds(trip('2027-06-16T05:00:00Z'), DEFAULTS)).toBe(10 * HOUR);
  });

  it('keeps the longer lead when an airport run is also in the small hours, and each rule can be turned off', () => {
    expect(dispatchLeadSeconds(trip('2027-01-12T05:00:00Z', { dropoffKind: 'airport' }), DEFAULTS)).toBe(9 * HOUR);
    expect(
      dispatchLeadSeconds(trip('2027-01-12T05:00:00Z', { dropoffKind: 'airport' }), {
        ...DEFAULTS,
        earlyBeforeHour: 0,
      }),
    ).toBe(3 * HOUR);
    expect(
      dispatchLeadSeconds(trip('2027-01-12T14:00:00Z', { dropoffKind: 'airport' }), {
        ...DEFAULTS,
        advanceLeadSeconds: 0,
      }),
    ).toBe(15 * 60);
  });
});
