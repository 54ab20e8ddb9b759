import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  renderDriverApprovedText,
  renderDriverJobCancelledText,
  renderDriverJobReleasedText,
  renderDriverLicenceReminderText,
  renderDriverRejectedText,
  renderDriverSignInCodeText,
  renderEmailVerificationCode,
  renderOpsCodeCeilingEmail,
  renderOpsNewRecipientCodesPausedEmail,
  renderJobCardText,
  renderPassengerAmendedText,
  renderPassengerCancelledText,
  renderPassengerNoDriverFoundText,
  renderPassengerTripEndedText,
  renderPassengerNoDriverYetText,
  renderPassengerReceiptEmail,
  renderPassengerReceiptText,
  renderPassengerSignInCode,
  renderPassengerAssignedText,
  renderPassengerProvidedByText,
  renderOpsUnassignedEmail,
  type CancelledBy,
} from '../../../src/notify/templates.js';
import type { DriverRow } from '../../../src/drivers/store.js';
import type { BookingRow } from '../../../src/bookings/store.js';
import type { CancelInput } from '../../../workflows/bookings/definitions.js';

// Every message's words live in src/notify/templates.ts. A driver whose job is cancelled is told who
// cancelled it, from a fixed set, and never why.

describe('a disabled passenger with no suitable vehicle free yet (docs/accessibility.md)', () => {
  const b = {
    ref: 'TXAB12CD34',
    pickup_at: new Date('2026-07-03T12:00:00Z'),
    pickup_query: '1 deansgate manchester',
    pickup: { label: '1 Deansgate, Manchester M3 1AZ' },
    dropoff_query: 'Manchester Airport T2',
    dropoff: { label: 'Manchester Airport Terminal 2' },
    passengers: 1,
    vehicle_type: 'wav',
    wheelchair: true,
    assistance_dog: true,
    help_finding_vehicle: false,
  } as unknown as BookingRow;

  it('is told the truth, that people are on it and that it costs nothing extra; never refused', () => {
    const text = renderPassengerNoDriverYetText(b, 'https://t/x', '2026-07-03T12:30:00Z');
    expect(text).toContain('we have not yet found a wheelchair-accessible vehicle free near');
    expect(text).toContain('our team has been told and will help');
    expect(text).toContain('It costs nothing extra.');
    const dogOnly = renderPassengerNoDriverYetText({ ...b, vehicle_type: 'saloon', wheelchair: false }, 'https://t/x');
    expect(dogOnly).toContain('a driver who can take your assistance dog');
  });

  it('tells ops first, in the subject, what the passenger needs', () => {
    const email = renderOpsUnassignedEmail(b, 1, 'https://taxi.example');
    expect(email.subject).toBe('Accessible vehicle needed: Unassigned booking TXAB12CD34 (round 1)');
    expect(email.body).toContain('The passenger needs: a wheelchair-accessible vehicle, an assistance dog carried.');
    const plain = renderOpsUnassignedEmail(
      { ...b, vehicle_type: 'saloon', wheelchair: false, assistance_dog: false },
      1,
      '',
    );
    expect(plain.subject).toBe('Unassigned booking TXAB12CD34 (round 1)');
  });

  it('shows the driver what the passenger asked for on the job card', () => {
    const card = renderJobCardText(
      { ...b, fare_pence: 2450, payment_method: 'cash', help_finding_vehicle: true },
      'https://t/j',
    );
    expect(card).toContain('Assistance dog: the passenger travels with one; carry it, at no extra charge');
    expect(card).toContain('Help finding the vehicle: the passenger asked you to help them find the car');
  });
});

describe('a ride another operator provides (sub-contracting, docs/records.md)', () => {
  const booking = { ref: 'TXAB12CD34', pickup_at: new Date('2026-07-03T12:00:00Z') } as BookingRow;
  const track = 'https://taxi.example/track/TXAB12CD34';
  const operator = {
    name: 'Tyne Cars',
    licence: 'Newcastle City Council private hire operator licence PHO-0042, valid to 2027-03-31',
  };

  it("names the operator and its licence in a partner fleet driver's assignment", () => {
    const driver = { name: 'Dana Fleet', vehicle_description: 'Skoda Octavia', plate: 'PH/77' } as DriverRow;
    expect(renderPassengerAssignedText(booking, driver, track, null, operator)).toBe(
      'Direct Taxi: booking TXAB12CD34: Dana is picking you up at Fri 3 Jul 13:00, Skoda Octavia, council licence PH/77. Your ride is provided by Tyne Cars, a licensed operator we work with (Newcastle City Council private hire operator licence PHO-0042, valid to 2027-03-31). Track: https://taxi.example/track/TXAB12CD34',
    );
    // A driver of ours: no operator named.
    expect(renderPassengerAssignedText(booking, driver, track)).not.toContain('provided by');
  });

  it('tells the passenger who provides the ride once the job is handed to another operator', () => {
    expect(renderPassengerProvidedByText(booking, operator, track)).toBe(
      'Direct Taxi: booking TXAB12CD34: Your ride is provided by Tyne Cars, a licensed operator we work with (Newcastle City Council private hire operator licence PHO-0042, valid to 2027-03-31). Your booking and fare stay the same; the tracking page shows your driver once one is assigned: https://taxi.example/track/TXAB12CD34',
    );
  });
});

describe('the driver’s cancellation text', () => {
  it('says who cancelled: the passenger, the partner by its registered name, or Direct Taxi', () => {
    expect(renderDriverJobCancelledText('TXAB12CD34', 'passenger')).toBe(
      'Job TXAB12CD34 has been cancelled by the passenger. No action needed.',
    );
    expect(renderDriverJobCancelledText('TXAB12CD34', 'partner', 'Acme Travel')).toBe(
      'Job TXAB12CD34 has been cancelled by Acme Travel. No action needed.',
    );
    expect(renderDriverJobCancelledText('TXAB12CD34', 'ops')).toBe(
      'Job TXAB12CD34 has been cancelled by Direct Taxi operations. No action needed.',
    );
  });

  it('says "the booking partner" when no registered name fits', () => {
    for (const name of [null, undefined, '', '   ', 'x'.repeat(61)]) {
      expect(renderDriverJobCancelledText('TXAB12CD34', 'partner', name), String(name)).toBe(
        'Job TXAB12CD34 has been cancelled by the booking partner. No action needed.',
      );
    }
    expect(renderDriverJobCancelledText('TXAB12CD34', 'partner', '  North \n Cabs ')).toBe(
      'Job TXAB12CD34 has been cancelled by North Cabs. No action needed.',
    );
  });

  it('never names the partner for anyone else’s cancel', () => {
    expect(renderDriverJobCancelledText('TXAB12CD34', 'passenger', 'Acme Travel')).not.toContain('Acme');
    expect(renderDriverJobCancelledText('TXAB12CD34', 'ops', 'Acme Travel')).not.toContain('Acme');
  });

  it('knows every "by" the workflow is told (src/notify names it without importing the workflow)', () => {
    expectTypeOf<CancelledBy>().toEqualTypeOf<CancelInput['by']>();
  });

  it('names no one when the workflow did not say who (never "the passenger" by default)', () => {
    expect(renderDriverJobCancelledText('TXAB12CD34')).toBe('Job TXAB12CD34 has been cancelled. No action needed.');
    expect(renderDriverJobCancelledText('TXAB12CD34', null)).toBe(
      'Job TXAB12CD34 has been cancelled. No action needed.',
    );
    // A value a newer workflow might send that this code does not know.
    expect(renderDriverJobCancelledText('TXAB12CD34', 'system' as CancelledBy)).toBe(
      'Job TXAB12CD34 has been cancelled. No action needed.',
    );
    expect(renderDriverJobCancelledText('TXAB12CD34', 'toString' as CancelledBy)).toBe(
      'Job TXAB12CD34 has been cancelled. No action needed.',
    );
  });
});

describe('texts moved into the templates', () => {
  it('keep their words', () => {
    expect(renderDriverJobReleasedText('TXAB12CD34', 'dropped')).toBe(
      'Job TXAB12CD34 is no longer yours (dropped). No action needed.',
    );
    expect(renderDriverApprovedText('https://taxi.example')).toBe(
      'You are approved to drive with Direct Taxi. Sign in at https://taxi.example/driver with this phone number.',
    );
    expect(renderDriverRejectedText()).toBe('Your application to drive with Direct Taxi was not approved.');
    expect(renderDriverSignInCodeText('123456', 10)).toBe(
      'Your Direct Taxi driver sign-in code is 123456. It expires in 10 minutes. Never share it.',
    );
    expect(renderPassengerSignInCode('123456', 10)).toEqual({
      subject: 'Your Direct Taxi sign-in code',
      body: 'Your Direct Taxi sign-in code is 123456. It expires in 10 minutes. Never share it: nobody from Direct Taxi will ask for it.',
    });
    expect(renderEmailVerificationCode('123456', 15)).toEqual({
      subject: 'Your Direct Taxi verification code',
      body: 'Your code is 123456. It expires in 15 minutes. If you did not ask for it, ignore this email.',
    });
  });

  it('tell a driver offers stop once the licence’s last day is over, not on it', () => {
    expect(renderDriverLicenceReminderText('2026-07-31')).toBe(
      'Direct Taxi: your taxi licence runs out on 2026-07-31. Renew it and send us the new one, or job offers stop after that day.',
    );
  });

  it('tell ops which channel nears its ceiling and which setting raises it', () => {
    const sms = renderOpsCodeCeilingEmail({ channel: 'sms', sent: 1600, ceiling: 2000, alertRatio: 0.8 });
    expect(sms.subject).toBe("Sign-in sms codes at 80 % of today's ceiling");
    expect(sms.body).toBe(
      "1600 of the 2000 sms codes allowed today (UTC) have been sent. At the ceiling, every sign-in and verification code by sms, drivers' " +
        "and returning passengers' too, stops until midnight UTC. If this is not real demand, look for many codes to drivers' or " +
        "returning passengers' numbers from few addresses in the API logs; raise SIGN_IN_SMS_PER_DAY if it is.",
    );
    expect(renderOpsCodeCeilingEmail({ channel: 'email', sent: 4000, ceiling: 5000, alertRatio: 0.8 }).body).toContain(
      'raise SIGN_IN_EMAILS_PER_DAY',
    );
  });

  it('tell ops when codes to new recipients pause, and that drivers and returning passengers still get theirs (issue 33)', () => {
    const sms = renderOpsNewRecipientCodesPausedEmail({ channel: 'sms', sent: 1000, ceiling: 2000, share: 0.5 });
    expect(sms.subject).toBe('Sign-in sms codes to new numbers paused for today');
    expect(sms.body).toBe(
      '1000 sms codes have been sent today (UTC), and codes to recipients who never signed in may use only 1000 (50 %) of the 2000 ' +
        'allowed: until midnight UTC, new sign-ups, claim links, verification codes and new driver phones get no sms code. Approved ' +
        'drivers and returning passengers still get theirs, up to the ceiling. If this is not real demand, look for SMS pumping (many ' +
        'new numbers from few addresses) in the API logs; raise SIGN_IN_SMS_PER_DAY if it is.',
    );
    expect(
      renderOpsNewRecipientCodesPausedEmail({ channel: 'email', sent: 2500, ceiling: 5000, share: 0.5 }).subject,
    ).toBe('Sign-in email codes to new addresses paused for today');
  });
});

describe('what the passenger is told (issue 23, item 6)', () => {
  const b = {
    ref: 'TXAB12CD34',
    pickup_at: new Date('2026-12-04T18:30:00Z'),
    passenger_name: 'Mary Seacole',
    fare_pence: 1240,
    pickup: { label: 'Manchester Piccadilly' },
    dropoff: { label: 'Wilmslow Road, Rusholme' },
  } as BookingRow;

  it('never invites a reply, which nobody reads, and points to the booking instead (issue 35)', () => {
    const track = 'https://taxi.example/track/TXAB12CD34';
    const texts = [
      renderPassengerCancelledText(b, 'ops'),
      renderPassengerAmendedText(b, track),
      renderPassengerTripEndedText({ ...b, paid_pence: null, paid_method: null }, track),
      renderDriverRejectedText(),
    ];
    for (const text of texts) expect(text).not.toMatch(/reply/i);
    expect(renderPassengerAmendedText(b, track)).toContain(`see your booking: ${track}`);
    expect(renderPassengerTripEndedText({ ...b, paid_pence: null, paid_method: null }, track)).toContain(track);
  });

  it('says who cancelled, in the passenger’s terms, and never a reason', () => {
    expect(renderPassengerCancelledText(b, 'passenger')).toBe(
      'Direct Taxi: taxi TXAB12CD34, Fri 4 Dec 18:30 from Manchester Piccadilly, has been cancelled as you asked. Nothing is due. If you did not expect this, book again.',
    );
    expect(renderPassengerCancelledText(b, 'ops')).toContain('has been cancelled by Direct Taxi operations.');
    expect(renderPassengerCancelledText(b, 'partner')).toContain(
      'has been cancelled by the company you booked through.',
    );
    expect(renderPassengerCancelledText(b)).toContain('has been cancelled. Nothing is due.');
  });

  it('says what happens next when no driver has accepted yet, and that nobody was found at the end', () => {
    expect(renderPassengerNoDriverYetText(b, 'https://taxi.example/track/TXAB12CD34')).toBe(
      'Direct Taxi: booking TXAB12CD34: no driver has accepted yet. We keep asking drivers near Manchester Piccadilly until your pickup time (Fri 4 Dec 18:30) and will text you as soon as one does. You can cancel free at any time: https://taxi.example/track/TXAB12CD34',
    );
    // Today's workflow searches until half an hour past pickup, and says until when.
    expect(renderPassengerNoDriverYetText(b, 'https://t/x', '2026-12-04T19:00:00Z')).toContain(
      'We keep asking drivers near Manchester Piccadilly until Fri 4 Dec 19:00 and will text you',
    );
    expect(renderPassengerNoDriverFoundText(b)).toContain('The booking is closed and nothing is due.');
  });

  it('gives a receipt with the fare, the rules that added to it, how it was paid and the payment record', () => {
    const receipt = {
      basis: 'Manchester City Council tariff, Tariff 2 (night)',
      rules: [
        { description: 'Tariff 2 (night)', amountPence: 0 },
        { description: 'Extra passenger', amountPence: 20 },
      ],
      payment: { id: 418, amountPence: 1240, method: 'cash', recordedAt: new Date('2026-12-04T18:52:00Z') },
    };
    expect(renderPassengerReceiptText(b, receipt)).toBe(
      [
        'Direct Taxi: Receipt for taxi TXAB12CD34: Fri 4 Dec 18:30, Manchester Piccadilly to Wilmslow Road, Rusholme.',
        'Fare £12.40: Manchester City Council tariff, Tariff 2 (night).',
        '  Extra passenger: £0.20',
        'Paid £12.40 to the driver (cash), recorded Fri 4 Dec 18:52.',
        'Payment record 418.',
      ].join('\n'),
    );
    expect(renderPassengerReceiptText(b, { ...receipt, payment: null })).toContain('No payment has been recorded yet.');
    expect(renderPassengerReceiptEmail(b, receipt).subject).toBe('Your receipt for taxi TXAB12CD34');
  });

  it('emails how the fare was reached: the table, every line of its arithmetic, and the distance and time (issue 36)', () => {
    const receipt = {
      basis: 'Manchester City Council table from 2023-09-15, Tariff 2 (night)',
      measured: { meters: 3219, seconds: 420, route: 'estimate:circuity-v1' },
      rules: [
        {
          description: 'Tariff 2 (night) — Fri 18:30 GMT; meter £3.80 + 40 x £0.20 (distance) = £11.80',
          amountPence: 0,
        },
        { description: 'Extra passenger', amountPence: 20 },
      ],
      payment: null,
    };
    const body = renderPassengerReceiptEmail(b, receipt).body;
    expect(body).toContain('Fare £12.40: Manchester City Council table from 2023-09-15, Tariff 2 (night).');
    expect(body).toContain('Priced for 2.0 miles and 7 min, estimated from the straight-line distance.');
    expect(body).toContain('  Tariff 2 (night) — Fri 18:30 GMT; meter £3.80 + 40 x £0.20 (distance) = £11.80\n');
    expect(body).toContain('  Extra passenger: £0.20');
    // The text costs by the segment: what each line added, not the arithmetic.
    const text = renderPassengerReceiptText(b, receipt);
    expect(text).not.toContain('meter £3.80');
    expect(text).not.toContain('Priced for');
    expect(
      renderPassengerReceiptEmail(b, { ...receipt, measured: { ...receipt.measured, route: 'osrm' } }).body,
    ).toContain('7 min, by road.');
  });
});

describe('the address as typed reaches the driver and the passenger (issue 35)', () => {
  const b = {
    ref: 'TXAB12CD34',
    status: 'dispatching',
    pickup_at: new Date('2026-12-04T18:30:00Z'),
    passenger_name: 'Ada Lovelace',
    passenger_phone: '+447400123456',
    payment_method: 'cash_to_driver',
    flight_number: null,
    meet_and_greet: false,
    notes: null,
    passengers: 1,
    vehicle_type: 'saloon',
    wheelchair: false,
    fare_pence: 1850,
    pickup: {
      label: 'NW1 6XE, Camden',
      kind: 'postcode',
      lat: 51.52,
      lon: -0.16,
      postcodeDistrict: 'NW1',
      council: 'Camden',
      precision: 'postcode',
    },
    dropoff: {
      label: 'Heathrow Terminal 5',
      kind: 'place',
      lat: 51.47,
      lon: -0.49,
      postcodeDistrict: 'TW6',
      council: 'Hillingdon',
    },
    pickup_query: '221b baker street, london nw1 6xe',
    dropoff_query: 'heathrow t5',
  } as BookingRow;

  it('puts the house number on the job card, beside the place it was priced to', () => {
    const card = renderJobCardText(b, 'https://taxi.example/driver/jobs/x');
    expect(card).toContain('From: 221B Baker Street, London NW1 6XE (NW1 6XE, Camden)');
    expect(card).toContain('To: Heathrow T5 (Heathrow Terminal 5)');
  });

  it('tells the passenger the pickup in their own words', () => {
    expect(renderPassengerCancelledText(b, 'passenger')).toContain(
      'from 221B Baker Street, London NW1 6XE (NW1 6XE, Camden)',
    );
  });
});
