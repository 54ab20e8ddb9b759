import { describe, expect, it } from 'vitest';
import { minutesAndSeconds, secondsLeft } from '../../../src/pages/browser/countdown.js';
import { isoMinute, londonDate, londonTime, pounds, recordText, words } from '../../../src/pages/browser/format.js';
import { heartbeatDue, locationProblem, LOCATION_HEARTBEAT_MS } from '../../../src/pages/browser/location.js';
import { placeKey, rank, vagueWhere, withTown, withTyped } from '../../../src/pages/browser/pickup-precision.js';
import { pollDelay } from '../../../src/pages/browser/poll.js';
import { applicationSentence, bookingSentence, formField, paperLabel } from '../../../src/pages/browser/problems.js';
import { uuidV4 } from '../../../src/pages/browser/uuid.js';

// The pages' scripts' own logic, without a browser (the pages themselves run in Chromium in the
// integration tests).

describe('what the scripts say', () => {
  it('says money in pounds and codes in words', () => {
    expect(pounds(4550)).toBe('£45.50');
    expect(pounds(5)).toBe('£0.05');
    expect(pounds(0)).toBe('£0.00');
    expect(words('awaiting_confirmation')).toBe('awaiting confirmation');
    expect(words(null)).toBe('—');
    expect(words('')).toBe('—');
  });

  it("says instants on London's wall clock either side of the clock changes", () => {
    expect(londonTime('2026-07-03T14:30:00Z')).toBe('Fri 3 Jul, 15:30');
    expect(londonTime('2026-01-15T09:00:00Z')).toBe('Thu 15 Jan, 09:00');
    expect(londonTime('2026-03-29T00:59:05Z', { seconds: true })).toBe('Sun 29 Mar, 00:59:05');
    expect(londonTime('2026-03-29T01:00:00Z')).toBe('Sun 29 Mar, 02:00');
    // Twice 01:30 in autumn: the same words for both instants.
    expect(londonTime('2026-10-25T00:30:00Z')).toBe('Sun 25 Oct, 01:30');
    expect(londonTime('2026-10-25T01:30:00Z')).toBe('Sun 25 Oct, 01:30');
    expect(londonTime(null)).toBe('—');
    // A week by its Monday: 23:30 UTC on a summer Sunday is already Monday in London.
    expect(londonDate('2026-06-28T23:30:00Z')).toBe('Mon, 29 Jun 2026');
    expect(isoMinute('2026-07-03T14:30:59.123Z')).toBe('2026-07-03 14:30');
  });

  it('names the fields of a refusal as the forms do', () => {
    expect(formField('body.passenger_name')).toBe('passenger_name');
    expect(formField('body.documents.0.data_base64')).toBe('documents');
    expect(formField('documents')).toBe('documents');
    expect(bookingSentence('Mobile number', 'is not a phone number')).toBe('Mobile number is not a phone number');
    expect(bookingSentence('Name', 'too long')).toBe('Too long');
    expect(applicationSentence('Email', 'must be an email address')).toBe('Email must be an email address');
    expect(applicationSentence('Seats', 'may be at most 16')).toBe('Seats may be at most 16');
    expect(applicationSentence('Phone', 'Not a UK mobile')).toBe('Phone: not a UK mobile');
    expect(paperLabel('body.driver_licence.expires')).toBe('Driver licence expiry date');
    expect(paperLabel('body.driver_licence.document.data_base64')).toBe('Driver licence photo or scan');
    expect(paperLabel('body.vehicle_colour')).toBe('Colour');
    expect(paperLabel('body.something_else')).toBe('something else');
    expect(recordText(null)).toBe('—');
    expect(recordText('')).toBe('—');
    expect(recordText(true)).toBe('yes');
    expect(recordText(false)).toBe('no');
    expect(recordText(4)).toBe('4');
  });

  it('makes a version 4 UUID from random bytes when the browser has no randomUUID', () => {
    const id = uuidV4(Uint8Array.from({ length: 16 }, (_, i) => i * 17));
    expect(id).toBe('00112233-4455-4677-8899-aabbccddeeff');
    expect(uuidV4(new Uint8Array(16).fill(255))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});

describe('where exactly', () => {
  it('ranks places by how near the door they are and names a vague one in words', () => {
    expect(rank('point')).toBeLessThan(rank('postcode_district'));
    expect(rank('postcode_district')).toBeLessThan(rank('town_centre'));
    expect(rank('something new')).toBeGreaterThan(rank('town_centre'));
    expect(vagueWhere({ label: 'M14', precision: 'postcode_district', postcode_district: 'M14' })).toBe(
      'the postcode district M14',
    );
    expect(vagueWhere({ label: 'Leeds', precision: 'town_centre', town: null })).toBe('the centre of Leeds');
    expect(placeKey('  Leeds ')).toBe('leeds');
  });

  it('looks for a street in the pickup town, and a full postcode on its own', () => {
    expect(withTown('1 Deansgate', 'Manchester')).toBe('1 Deansgate, Manchester');
    expect(withTown('1 Deansgate, manchester', 'Manchester')).toBe('1 Deansgate, manchester');
    expect(withTown('M14 5TP', 'Manchester')).toBe('M14 5TP');
    expect(withTown('m145tp', 'Manchester')).toBe('m145tp');
    expect(withTown('1 Deansgate', null)).toBe('1 Deansgate');
  });

  it('keeps the house number typed first when the answer is a postcode (issue 35)', () => {
    expect(withTyped('NW1 6XE', '221B Baker Street, London')).toBe('221B Baker Street, London, NW1 6XE');
    // A street or a building is the new pickup as it stands; so is a postcode for a town typed alone.
    expect(withTyped('1 Deansgate, Manchester', 'Manchester')).toBe('1 Deansgate, Manchester');
    expect(withTyped('M14 5TP', 'Rusholme')).toBe('M14 5TP');
    // Words that already held a postcode are not given a second one.
    expect(withTyped('NW1 6XE', '221B Baker Street, NW1')).toBe('221B Baker Street, NW1, NW1 6XE');
    expect(withTyped('NW1 6XE', '221B Baker Street, NW1 6XF')).toBe('NW1 6XE');
    expect(withTyped('NW1 6XE', undefined)).toBe('NW1 6XE');
  });
});

describe('timing', () => {
  it("counts the job card's reply time down from the server's seconds", () => {
    expect(secondsLeft(90, 0)).toBe(90);
    expect(secondsLeft(90, 250)).toBe(90);
    expect(secondsLeft(90, 1000)).toBe(89);
    expect(secondsLeft(90, 95_000)).toBe(0);
    expect(minutesAndSeconds(75)).toBe('1:15');
    expect(minutesAndSeconds(5)).toBe('0:05');
    expect(minutesAndSeconds(0)).toBe('0:00');
  });

  it('polls the tracking page every 2.5 s and backs off to 30 s while the service cannot be reached', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(pollDelay)).toEqual([2500, 5000, 10000, 20000, 30000, 30000, 30000]);
  });

  it("sends the driver's position once a minute while online, and says why when the phone cannot", () => {
    expect(heartbeatDue(0, LOCATION_HEARTBEAT_MS - 1)).toBe(false);
    expect(heartbeatDue(0, LOCATION_HEARTBEAT_MS)).toBe(true);
    expect(locationProblem(1)).toMatch(/^Location is blocked/);
    expect(locationProblem(3)).toMatch(/taking too long/);
    expect(locationProblem(99)).toBe(locationProblem(2));
  });
});
