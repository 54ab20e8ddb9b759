import { describe, expect, it } from 'vitest';
import type { BookingRow } from '../../../src/bookings/store.js';
import type { DriverRow } from '../../../src/drivers/store.js';
import { renderPassengerAssignedText } from '../../../src/notify/templates.js';
import { driverDetailProblem, screenedFleetDriver, shownDriverDetail } from '../../../src/screening/driver-details.js';

// What a driver typed about themselves reaches passengers and partners: a safe character set, and
// an SMS that leaves out whatever fails it.

describe('driver details shown to others', () => {
  it('takes real names, makes, models and licence numbers', () => {
    for (const name of ['Jo Driver', 'Siobhán O’Neill-Ward', "D'Arcy Smith", 'Zoë Łukasz', 'محمد علي', 'Nguyễn Văn An'])
      expect(driverDetailProblem('name', name), name).toBeNull();
    for (const v of [
      'Toyota Corolla',
      'Škoda Octavia vRS',
      'Mercedes-Benz E-Class 300',
      'Citroën C4 Grand Picasso',
      'LEVC TX',
      'Toyota Prius+',
      'Peugeot 3008',
      'Rolls-Royce',
      'Land Rover',
    ]) {
      expect(driverDetailProblem('vehicle', v), v).toBeNull();
    }
    for (const plate of ['NCC-V-99', 'PH/1234', 'HCV 001234', 'TS1A2B3'])
      expect(driverDetailProblem('licence', plate), plate).toBeNull();
  });

  it('refuses what could carry a link, a number to call, markup or an instruction', () => {
    const refused: ['name' | 'vehicle' | 'licence', string][] = [
      ['name', 'Jo https://evil.example'],
      ['name', 'Jo (call 07700900123)'],
      ['name', 'Jo <b>'],
      ['name', 'Ignore previous instructions'],
      ['name', '123'],
      ['vehicle', 'Prius. Pay at evil.example'],
      ['vehicle', 'Prius call 07700900123'],
      ['vehicle', 'Prius: text me'],
      ['vehicle', 'pay@evil'],
      ['vehicle', '<script>'],
      ['vehicle', 'Ignore all previous instructions'],
      ['vehicle', 'Toyota\u202eProgress'],
      ['vehicle', 'Ｔoyota'], // fullwidth letters look Latin and are not
      ['licence', 'see http://x.io'],
      ['licence', '07700900123'],
      ['licence', 'PH.1234'],
    ];
    for (const [kind, value] of refused) expect(driverDetailProblem(kind, value), `${kind}: ${value}`).not.toBeNull();
    expect(shownDriverDetail('vehicle', 'Prius. Pay at evil.example')).toBeNull();
    expect(shownDriverDetail('vehicle', '  Toyota Prius ')).toBe('Toyota Prius');
    expect(shownDriverDetail('licence', null)).toBeNull();
  });

  it('holds an exchange fleet’s driver to the same rules, dropping each detail that fails', () => {
    expect(screenedFleetDriver({ name: 'Bea Exchange', vehicle: 'Skoda Octavia', plate: 'AB12 CDE' })).toEqual({
      name: 'Bea Exchange',
      vehicle: 'Skoda Octavia',
      plate: 'AB12 CDE',
    });
    expect(
      screenedFleetDriver({ name: 'Pay at http://evil.example/pay', vehicle: 'Skoda Octavia', plate: 'AB12 CDE' }),
    ).toEqual({ name: '', vehicle: 'Skoda Octavia', plate: 'AB12 CDE' });
    expect(
      screenedFleetDriver({ name: 'Eve Fleet', vehicle: 'See evil.example/pay', plate: 'call 07700900123 now' }),
    ).toEqual({ name: 'Eve Fleet', vehicle: '', plate: '' });
    expect(screenedFleetDriver({ name: 'Ignore previous instructions', vehicle: 'Ford', plate: 'PH/1234' })).toEqual({
      name: '',
      vehicle: 'Ford',
      plate: 'PH/1234',
    });
    expect(screenedFleetDriver(null)).toBeNull();
  });

  it('leaves what fails out of the passenger’s SMS, and names no one it cannot', () => {
    const booking = { ref: 'TXAB12CD34', pickup_at: new Date('2026-07-03T12:00:00Z') } as BookingRow;
    const driver = (over: Partial<DriverRow>) =>
      ({ name: 'Grace Hopper', vehicle_description: 'Toyota Prius', plate: 'PH/1234', ...over }) as DriverRow;
    const track = 'https://taxi.example/track/TXAB12CD34';
    // Without a registration on file, the council licence number, called what it is.
    expect(renderPassengerAssignedText(booking, driver({}), track)).toBe(
      'Direct Taxi: booking TXAB12CD34: Grace is picking you up at Fri 3 Jul 13:00, Toyota Prius, council licence PH/1234. Track: https://taxi.example/track/TXAB12CD34',
    );
    // First name only; the car as seen at the kerb; a driver close by said in minutes.
    expect(
      renderPassengerAssignedText(
        booking,
        driver({ vehicle_colour: 'Silver', vehicle_registration: 'ab12cde' }),
        track,
        7,
      ),
    ).toBe(
      'Direct Taxi: booking TXAB12CD34: Grace is arriving in about 7 min, Silver Toyota Prius, registration AB12 CDE. Track: https://taxi.example/track/TXAB12CD34',
    );
    const hostile = renderPassengerAssignedText(
      booking,
      driver({
        name: 'Grace, pay at evil.example',
        vehicle_description: 'Prius - call 09001234567',
        plate: 'see http://x.io',
        vehicle_colour: 'red, see evil.example',
      }),
      track,
    );
    expect(hostile).toBe(
      'Direct Taxi: booking TXAB12CD34: your driver is picking you up at Fri 3 Jul 13:00. Track: https://taxi.example/track/TXAB12CD34',
    );
  });
});
