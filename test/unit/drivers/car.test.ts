import { describe, expect, it } from 'vitest';
import { DEMO_DRIVERS } from '../../../dev/demo-fleet.js';
import { carDescription, firstName, formatRegistration } from '../../../src/drivers/car.js';

describe("the car a passenger is told to look for", () => {
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
    const car = { vehicle_colour: 'silver', vehicle_make: 'Skoda', vehicle_model: 'Octavia', vehicle_description: 'Skoda Octavia, silver' };
    expect(carDescription(car, 'Saloon')).toBe('Silver Skoda Octavia');
    expect(carDescription({ ...car, vehicle_make: null, vehicle_model: null }, 'Saloon')).toBe('Skoda Octavia, silver');
    expect(carDescription({ ...car, vehicle_colour: null }, 'Saloon')).toBe('Skoda Octavia');
    expect(carDescription({ vehicle_colour: 'dark blue', vehicle_make: null, vehicle_model: null, vehicle_description: '' }, 'Saloon (up to 4)')).toBe('Dark blue Saloon (up to 4)');
  });

  it('gives every demo driver a colour and a registration no real car has, as on the plate', () => {
    for (const d of DEMO_DRIVERS) {
      expect(formatRegistration(d.vehicleRegistration)).toBe(d.vehicleRegistration);
      expect(d.vehicleRegistration).toMatch(/^ZZ\d{2} [A-Z]{3}$/);
      expect(d.vehicleRegistration).not.toBe(d.plate);
      const car = { vehicle_colour: d.vehicleColour, vehicle_make: d.vehicleMake, vehicle_model: d.vehicleModel, vehicle_description: d.vehicleDescription };
      expect(carDescription(car, '')).toBe(`${d.vehicleColour.charAt(0).toUpperCase()}${d.vehicleColour.slice(1)} ${d.vehicleMake} ${d.vehicleModel}`);
    }
    expect(new Set(DEMO_DRIVERS.map((d) => d.vehicleRegistration)).size).toBe(DEMO_DRIVERS.length);
  });
});
