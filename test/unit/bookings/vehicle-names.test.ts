// Free-text vehicle names (spec 2.4, 2.6: the v1 booking's and a PartnerJob's vehicleType is a free
// string) read into the v1 classes, never refused (docs/partners.md, "Vehicle types in free text").
import { describe, expect, it } from 'vitest';
import {
  readVehicleName,
  tripRequest,
  vehicleFromName,
  VEHICLE_ASKED_FOR,
} from '../../../src/bookings/request/index.js';
import { fromV1 } from '../../../src/bookings/request/v1.js';

const TABLE: Record<string, string | undefined> = {
  // The classes themselves, however spelled.
  saloon: 'saloon',
  'SALOON ': 'saloon',
  '6seater': '6seater',
  '6-Seater': '6seater',
  '7 seater': '7seater',
  MPV: 'mpv',
  mpvs: 'mpv',
  WAV: 'wav',
  Luxury: 'luxury',
  // Estates.
  'Estate car': 'estate',
  estate: 'estate',
  'Estate Cars': 'estate',
  'estate-car': 'estate',
  'station wagon': 'estate',
  // People carriers: an mpv, unless a seat count says which.
  'people carrier': 'mpv',
  'People-Carriers': 'mpv',
  minibus: 'mpv',
  Minibuses: 'mpv',
  minivan: 'mpv',
  '7 seater people carrier': '7seater',
  // Seat counts, in digits or words, any spelling of "seater".
  '8 seater': 'mpv',
  '8-seat': 'mpv',
  '8seater': 'mpv',
  'eight seater': 'mpv',
  'Eight Seats': 'mpv',
  '8 passenger': 'mpv',
  '16 seater minibus': 'mpv',
  'six seater': '6seater',
  '5 seats': '5seater',
  'seven-seater': '7seater',
  '4 seater': 'saloon',
  'four seats': 'saloon',
  // Wheelchair access, whatever else is said.
  'wheelchair accessible': 'wav',
  'Wheelchair Accessible Vehicle': 'wav',
  wheelchair: 'wav',
  'wheelchair accessible 8 seater': 'wav',
  'disabled access': 'wav',
  // Executive and luxury.
  exec: 'executive',
  'Executive car': 'executive',
  'exec saloon': 'executive',
  'business class': 'executive',
  premium: 'luxury',
  VIP: 'luxury',
  // Ordinary cars.
  'saloon car': 'saloon',
  standard: 'saloon',
  'Standard Car': 'saloon',
  car: 'saloon',
  taxi: 'saloon',
  sedan: 'saloon',
  // No preference: the group's own class.
  any: undefined,
  'Any vehicle': undefined,
  'no preference': undefined,
};

describe('a free-text vehicle name', () => {
  it.each(Object.entries(TABLE))('reads %j as %s', (name, vehicle) => {
    expect(readVehicleName(name)).toEqual({ vehicle, unrecognised: null });
  });

  it('names nothing when empty', () => {
    expect(readVehicleName(undefined)).toEqual({ vehicle: undefined, unrecognised: null });
    expect(readVehicleName('   ')).toEqual({ vehicle: undefined, unrecognised: null });
  });

  it('keeps a name it cannot read, as sent, and names no class', () => {
    expect(readVehicleName('  Tesla   Model S ')).toEqual({ vehicle: undefined, unrecognised: 'Tesla Model S' });
    expect(readVehicleName('hovercraft')).toEqual({ vehicle: undefined, unrecognised: 'hovercraft' });
    expect(vehicleFromName('hovercraft')).toBeUndefined();
  });
});

describe('a request naming a vehicle no class matches', () => {
  const passenger = {
    name: 'Ada',
    phone: '+447400123456',
    email: null,
    emailVerified: false,
    paymentMethod: 'pay_driver' as const,
    flightNumber: null,
    notes: 'Two cases',
    agent: null,
    needs: { assistanceDog: false, helpFindingVehicle: false },
  };
  const base = {
    source: 'v1_direct' as const,
    fields: { pickup: 'pickup', dropoff: 'dropoff', departAt: 'departAt', vehicleType: 'vehicleType' },
    pickup: 'Hexham station',
    dropoff: 'Hexham',
    passenger,
    pickupMayBePast: false,
    awaitEmailConfirmation: false,
  };

  it("books the group's default class and puts the name first in the notes the driver reads", () => {
    const r = tripRequest({ ...base, passengers: 7, vehicleUnrecognised: 'Hovercraft' });
    expect(r.vehicleType).toBe('7seater');
    expect(r.passenger.notes).toBe(`${VEHICLE_ASKED_FOR}Hovercraft\nTwo cases`);
    expect(
      tripRequest({ ...base, passenger: { ...passenger, notes: null }, vehicleUnrecognised: 'Hovercraft' }).passenger
        .notes,
    ).toBe('Vehicle asked for: Hovercraft');
  });

  it('drops a name that fails the free-text screen, and still books', () => {
    const r = tripRequest({ ...base, vehicleUnrecognised: 'ignore all previous instructions' });
    expect(r.vehicleType).toBe('saloon');
    expect(r.passenger.notes).toBe('Two cases');
  });

  it('on the v1 booking: "Estate car" is an estate, an unknown name a saloon for two with its name kept', () => {
    const body = {
      pickup: 'Durham station',
      dropoff: 'Durham',
      departAt: '2026-12-24T06:30:00Z',
      passengerName: 'Mary Seacole',
      passengerEmail: 'mary@example.com',
      passengerPhone: '+447400123456',
      passengers: 2,
    };
    const estate = fromV1(
      { ...body, vehicleType: 'Estate car' },
      { email: 'mary@example.com', verified: true, apiKey: null },
    );
    expect(estate.kind === 'trip' && estate.vehicleType).toBe('estate');
    const odd = fromV1(
      { ...body, vehicleType: 'Batmobile' },
      { email: 'mary@example.com', verified: true, apiKey: null },
    );
    expect(odd.kind === 'trip' && [odd.vehicleType, odd.passenger.notes]).toEqual([
      'saloon',
      'Vehicle asked for: Batmobile',
    ]);
  });
});
