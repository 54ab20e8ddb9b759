import { describe, expect, it } from 'vitest';
import { DEMO_DRIVERS } from '../../../dev/demo-fleet.js';
import { carDescription, firstName, formatRegistration } from '../../../src/notify/car.js';
import { DriverApplicationRequest } from '../../../src/schemas/drivers.js';

describe('the car a passenger is told to look for', () => {
  it('spaces a registration as the number plate does, in capitals', () => {
    expect(formatRegistration('ab12cde')).toBe('AB12 CDE');
    expect(formatRegistration(' ab12  cde ')).toBe('AB12 CDE');
    expect(formatRegistration('A123BCD')).toBe('A123 BCD');
    expect(formatRegistration('abc123d')).toBe('ABC 123D');
    expect(formatRegistration('1234 AB')).toBe('1234 AB');
    expect(formatRegistration('')).toBeNull();
    expect(formatRegistration(null)).toBeNull();
    expect(formatRegistration('<b>x</b>')).toBeNull();
  });

  it('names the driver by their first name only', () => {
    expect(firstName('Morag Fraser')).toBe('Morag');
    expect(firstName('  Sam  ')).toBe('Sam');
    expect(firstName('')).toBeNull();
  });

  it('puts the colour before the make and model, once', () => {
    const car = {
      vehicle_colour: 'silver',
      vehicle_make: 'Skoda',
      vehicle_model: 'Octavia',
      vehicle_description: 'Skoda Octavia, silver',
    };
    expect(carDescription(car, 'Saloon')).toBe('Silver Skoda Octavia');
    expect(carDescription({ ...car, vehicle_make: null, vehicle_model: null }, 'Saloon')).toBe('Skoda Octavia, silver');
    expect(carDescription({ ...car, vehicle_colour: null }, 'Saloon')).toBe('Skoda Octavia');
    expect(
      carDescription(
        { vehicle_colour: 'dark blue', vehicle_make: null, vehicle_model: null, vehicle_description: '' },
        'Saloon (up to 4)',
      ),
    ).toBe('Dark blue Saloon (up to 4)');
  });

  it('gives every demo driver a colour and a registration no real car has, as on the plate', () => {
    for (const d of DEMO_DRIVERS) {
      expect(formatRegistration(d.vehicleRegistration)).toBe(d.vehicleRegistration);
      expect(d.vehicleRegistration).toMatch(/^ZZ\d{2} [A-Z]{3}$/);
      expect(d.vehicleRegistration).not.toBe(d.plate);
      const car = {
        vehicle_colour: d.vehicleColour,
        vehicle_make: d.vehicleMake,
        vehicle_model: d.vehicleModel,
        vehicle_description: d.vehicleDescription,
      };
      expect(carDescription(car, '')).toBe(
        `${d.vehicleColour.charAt(0).toUpperCase()}${d.vehicleColour.slice(1)} ${d.vehicleMake} ${d.vehicleModel}`,
      );
    }
    expect(new Set(DEMO_DRIVERS.map((d) => d.vehicleRegistration)).size).toBe(DEMO_DRIVERS.length);
  });
});

describe("the application form's colour", () => {
  const application = (colour: unknown) => ({
    name: 'Jo Driver',
    phone: '07400 123456',
    email: 'jo@example.com',
    licensing_authority: 'Leeds City Council',
    driver_licence_number: 'D-1234',
    driver_licence_expires: '2030-01-31',
    vehicle_licence_number: 'LCC 77',
    vehicle_licence_expires: '2029-06-30',
    vehicle_make: 'Toyota',
    vehicle_model: 'Corolla',
    vehicle_registration: 'ab12 cde',
    vehicle_type: 'saloon',
    seats: 4,
    documents: [
      { kind: 'driver_licence', content_type: 'application/pdf', data_base64: 'JVBERg==' },
      { kind: 'vehicle_licence', content_type: 'application/pdf', data_base64: 'JVBERg==' },
    ],
    ...(colour === undefined ? {} : { vehicle_colour: colour }),
  });
  const issues = (colour: unknown) => {
    const parsed = DriverApplicationRequest.safeParse(application(colour));
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('is optional, short plain words, and never control characters', () => {
    expect(issues(undefined)).toEqual([]);
    expect(issues(null)).toEqual([]);
    expect(issues('')).toEqual([]);
    expect(issues(' Dark blue ')).toEqual([]);
    expect(DriverApplicationRequest.parse(application(' Dark blue ')).vehicle_colour).toBe('Dark blue');
    expect(issues('Silver\u0007')).toContain('vehicle_colour: must not contain control characters');
    expect(issues('blue\nCall 07400 123456')).not.toEqual([]);
    expect(issues('x'.repeat(31))).toEqual(['vehicle_colour: must be at most 30 characters']);
    expect(issues('blue <b>')).toEqual(['vehicle_colour: may contain only letters, spaces and hyphens']);
  });
});
