// What a driver is told about their papers: the app's notice as a licence nears its end, and a
// sent change summed up in words.
import { describe, expect, it } from 'vitest';
import { licenceNotice } from '../../../src/drivers/app.js';
import { changeSummary } from '../../../src/drivers/changes.js';

const now = new Date('2027-03-10T12:00:00Z');
const on = (d: string) => new Date(`${d}T00:00:00Z`);

describe('the licence notice in the driver app', () => {
  it('says nothing more than a fortnight ahead', () => {
    expect(
      licenceNotice({ driver_licence_expires: on('2027-03-25'), vehicle_licence_expires: on('2028-01-01') }, now),
    ).toBeNull();
  });
  it('names the licence that runs out first, and when, within the fortnight', () => {
    expect(
      licenceNotice({ driver_licence_expires: on('2027-03-24'), vehicle_licence_expires: on('2027-03-13') }, now),
    ).toBe(
      'Your vehicle licence runs out in 3 days (2027-03-13): send the renewed one under Your papers, or job offers stop after that day.',
    );
    expect(licenceNotice({ driver_licence_expires: on('2027-03-11'), vehicle_licence_expires: null }, now)).toMatch(
      /^Your driver licence runs out tomorrow \(2027-03-11\)/,
    );
    expect(licenceNotice({ driver_licence_expires: on('2027-03-10'), vehicle_licence_expires: null }, now)).toMatch(
      /runs out today/,
    );
  });
  it('leaves a licence that has run out to the not-getting-jobs message', () => {
    expect(licenceNotice({ driver_licence_expires: on('2027-03-09'), vehicle_licence_expires: null }, now)).toBeNull();
  });
});

describe('a sent change in words', () => {
  it('sums up each kind', () => {
    expect(changeSummary('licences', { driverLicenceExpires: null, vehicleLicenceExpires: '2028-03-01' })).toBe(
      'Vehicle licence to 2028-03-01',
    );
    expect(changeSummary('licences', { driverLicenceExpires: '2028-01-01', vehicleLicenceExpires: '2028-03-01' })).toBe(
      'Driver licence to 2028-01-01, vehicle licence to 2028-03-01',
    );
    expect(
      changeSummary('vehicle', {
        vehicleRegistration: 'MA19 XYZ',
        vehicleColour: null,
        vehicleType: 'wav',
        seats: 6,
        wheelchairAccessible: true,
      }),
    ).toBe('MA19 XYZ, wav, 6 seats, wheelchair accessible');
    expect(changeSummary('phone', { phone: '+447400123456' })).toBe('New phone +447400123456');
  });
});
