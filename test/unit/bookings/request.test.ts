// The one booking request (src/bookings/request/): the vehicle rule every source shares, quoted
// from docs/interface.md 2.6 ("use mpv or 6seater and larger for groups over 4; use wav for
// wheelchair access"), amendments, and each source's mapper giving the same request.
import { describe, expect, it } from 'vitest';
import type { ProblemError } from '../../../src/http/problem.js';
import { problemFromRefusal } from '../../../src/http/refusal-problem.js';
import { Refusal } from '../../../src/refusal.js';
import type { Partner, PartnerKind } from '../../../src/partners/store.js';
import {
  amendmentInput,
  defaultVehicleClass,
  jobSpec,
  vehicleClass,
  vehicleFromName,
} from '../../../src/bookings/request/index.js';
import { fromAgentInstant } from '../../../src/bookings/request/agent.js';
import { fromMcp } from '../../../src/bookings/request/mcp.js';
import { fromPartnerJob } from '../../../src/bookings/request/partner-job.js';
import { fromV1 } from '../../../src/bookings/request/v1.js';
import { PartnerJobSchema } from '../../../src/schemas/partner-job.js';

const partner = (kind: PartnerKind): Partner => ({
  id: `p-${kind}`,
  name: 'Acme Cars',
  kind,
  allowedToBook: true,
  liveIntakeApproved: true,
  bridgePaused: false,
  dailyJobLimit: 100,
  fleetId: null,
  callbackUrl: null,
  sandbox: false,
});

/** The Refusal a mapper throws. */
const refusal = (run: () => unknown): Refusal => {
  try {
    run();
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error('expected a Refusal');
};

/** The same, as the problem HTTP answers with. */
const problem = (run: () => unknown): ProblemError => problemFromRefusal(refusal(run));

describe('the vehicle rule', () => {
  it('gives up to 4 passengers a saloon, and larger groups the smallest of 6seater, 7seater and mpv that seats them', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(defaultVehicleClass)).toEqual([
      'saloon',
      'saloon',
      'saloon',
      'saloon',
      '6seater',
      '6seater',
      '7seater',
      'mpv',
    ]);
  });

  it('keeps a named class that seats the group, even a 5seater for five', () => {
    expect(vehicleClass('5seater', 5, { field: 'vehicle_type', tooSmall: 'refuse' })).toBe('5seater');
    expect(vehicleClass('executive', 3, { field: 'vehicle_type', tooSmall: 'refuse' })).toBe('executive');
  });

  it('refuses a named class too small for the group, naming the field, unless the source keeps it', () => {
    const err = problem(() => vehicleClass('saloon', 6, { field: 'vehicle_type', tooSmall: 'refuse' }));
    expect(err).toMatchObject({ status: 400, code: 'vehicle_too_small' });
    expect(err.message).toMatch(/6seater, 7seater, mpv/);
    expect(err.extra.errors).toEqual([{ field: 'body.vehicle_type', message: 'seats 4, fewer than 6 passengers' }]);
    expect(vehicleClass('saloon', 6, { field: 'body[0].vehicleType', tooSmall: 'keep' })).toBe('saloon');
  });

  it('reads a class named in free text, and never refuses one it does not know (vehicle-names.test.ts has the table)', () => {
    expect(vehicleFromName(undefined)).toBeUndefined();
    expect(vehicleFromName('  ')).toBeUndefined();
    expect(vehicleFromName('Minibus')).toBe('mpv');
    expect(vehicleFromName('6-seater')).toBe('6seater');
    expect(vehicleFromName('wheelchair accessible')).toBe('wav');
    expect(vehicleFromName('hovercraft')).toBeUndefined();
  });

  it('puts wheelchair access with the wav class, and only with it', () => {
    const at = new Date('2026-12-24T06:30:00Z');
    expect(jobSpec({ pickupAt: at, passengers: 1, vehicleType: 'wav', notes: null })).toEqual({
      pickupAt: '2026-12-24T06:30:00.000Z',
      passengers: 1,
      vehicleType: 'wav',
      wheelchair: true,
      notes: null,
    });
    expect(jobSpec({ pickupAt: at, passengers: 5, vehicleType: '6seater', notes: 'x' }).wheelchair).toBe(false);
  });
});

describe('an amendment', () => {
  const saloon = { passengers: 2, vehicleType: 'saloon' };

  it("gives a group that outgrows its class the spec's class, with its wheelchair access", () => {
    expect(amendmentInput(saloon, { passengers: 5 })).toEqual({
      passengers: 5,
      vehicleType: '6seater',
      wheelchair: false,
    });
  });

  it('changes only what it names while the class still seats the group', () => {
    expect(amendmentInput(saloon, { passengers: 3 })).toEqual({ passengers: 3 });
    expect(amendmentInput(saloon, { notes: 'Gate B' })).toEqual({ notes: 'Gate B' });
  });

  it("brings a named class's wheelchair access unless it says otherwise", () => {
    expect(amendmentInput(saloon, { vehicleType: 'wav' })).toEqual({ vehicleType: 'wav', wheelchair: true });
    expect(amendmentInput(saloon, { vehicleType: 'mpv', passengers: 7 })).toEqual({
      vehicleType: 'mpv',
      passengers: 7,
      wheelchair: false,
    });
  });

  it('is sent as it is when it names the whole job (partner intake)', () => {
    const whole = {
      pickupAt: '2026-12-24T06:30:00.000Z',
      passengers: 6,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    };
    expect(amendmentInput(saloon, whole)).toEqual(whole);
  });
});

describe('every source', () => {
  const at = '2026-12-24T06:30:00Z';
  const fiveJob = () =>
    PartnerJobSchema.parse({
      jobRef: 'J-1',
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      pickupTime: at,
      passengers: 5,
    });
  const sources = () => ({
    agent: fromAgentInstant(
      {
        pickup_address: 'Hexham station',
        dropoff_address: 'Hexham',
        passenger_name: 'Ada',
        passenger_phone_whatsapp: '+447400123456',
        depart_at: at,
        passenger_count: 5,
      },
      null,
    ),
    v1: fromV1(
      {
        pickup: 'Hexham station',
        dropoff: 'Hexham',
        departAt: at,
        passengerName: 'Ada',
        passengerEmail: 'ada@example.com',
        passengerPhone: '+447400123456',
        passengers: 5,
      },
      { email: 'ada@example.com', verified: true, apiKey: null },
    ),
    mcp: fromMcp(
      { pickup: 'Hexham station', dropoff: 'Hexham', pickup_time: at, passengers: 5, passenger_name: 'Ada' },
      { accountId: 'acc-1', phone: '+447400123456', email: undefined, emailVerified: false },
    ),
    partner: fromPartnerJob(partner('partner'), fiveJob(), null),
    operator: fromPartnerJob(partner('operator'), fiveJob(), null),
    supplier: fromPartnerJob(partner('supplier'), fiveJob(), null),
  });

  it("asks for the same vehicle for five passengers with none named: the spec's 6seater", () => {
    const requests = sources();
    expect(Object.keys(requests).sort()).toEqual(['agent', 'mcp', 'operator', 'partner', 'supplier', 'v1']);
    for (const [source, r] of Object.entries(requests)) {
      expect(r.kind, source).toBe('trip');
      if (r.kind !== 'trip') continue;
      expect({ source, passengers: r.passengers, vehicleType: r.vehicleType }).toEqual({
        source,
        passengers: 5,
        vehicleType: '6seater',
      });
    }
  });

  it("makes a sender's job reference the request's identity, and an operator's job its own", () => {
    const r = sources();
    expect(r.partner).toMatchObject({
      source: 'partner',
      senderJob: { partnerId: 'p-partner', jobRef: 'J-1', operatorId: null },
      pickupMayBePast: true,
    });
    expect(r.operator).toMatchObject({
      source: 'operator',
      senderJob: { partnerId: 'p-operator', jobRef: 'J-1', operatorId: 'p-operator' },
    });
    expect(r.v1).toMatchObject({ source: 'v1_direct', pickupMayBePast: false, awaitEmailConfirmation: false });
    expect(r.mcp).toMatchObject({ source: 'mcp', passengerAccountId: 'acc-1' });
  });

  it('keeps a class a sender names too small for the group, where the API refuses it', () => {
    const job = PartnerJobSchema.parse({
      jobRef: 'J-2',
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      pickupTime: at,
      passengers: 6,
      vehicleType: 'car',
    });
    expect(fromPartnerJob(partner('partner'), job, 1)).toMatchObject({ passengers: 6, vehicleType: 'saloon' });
    const err = problem(() =>
      fromAgentInstant(
        {
          pickup_address: 'Hexham station',
          dropoff_address: 'Hexham',
          passenger_name: 'Ada',
          passenger_phone_whatsapp: '+447400123456',
          passenger_count: 6,
          vehicle_type: 'saloon',
        },
        null,
      ),
    );
    expect(err.code).toBe('vehicle_too_small');
  });

  it("books a partner job's unknown class as the group's class, its name kept at the head of the notes for the driver", () => {
    const job = PartnerJobSchema.parse({
      jobRef: 'J-3',
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      pickupTime: at,
      passengers: 5,
      vehicleType: 'hovercraft',
      notes: 'Two cases',
    });
    const r = fromPartnerJob(partner('partner'), job, 4);
    expect(r).toMatchObject({ passengers: 5, vehicleType: '6seater' });
    expect(r.passenger.notes).toBe('Vehicle asked for: hovercraft\nTwo cases');
  });

  it("names a partner job's passenger fields at its place in the batch, and keeps pricing's names for its places", () => {
    const job = PartnerJobSchema.parse({
      jobRef: 'J-4',
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      pickupTime: at,
      passengerPhone: '123',
      flightNumber: '!!',
    });
    expect(problem(() => fromPartnerJob(partner('partner'), job, 2)).extra.errors?.map((e) => e.field)).toEqual([
      'body[2].passengerPhone',
      'body[2].flightNumber',
    ]);
    const r = fromPartnerJob(
      partner('partner'),
      PartnerJobSchema.parse({ jobRef: 'J-5', pickup: 'Hexham station', dropoff: 'Hexham', pickupTime: at }),
      2,
    );
    expect(r.kind === 'trip' && r.fields).toEqual({
      pickup: 'body[2].pickup',
      dropoff: 'body[2].dropoff',
      departAt: 'body[2].pickupTime',
      vehicleType: 'body[2].vehicleType',
    });
  });
});

describe("the passenger's fields, named as each contract names them", () => {
  const at = '2026-12-24T06:30:00Z';
  const bad = { phone: '123', email: 'not-an-email', flight: '!!' };
  const fields = (run: () => unknown) => refusal(run).fields.map((f) => f.name);

  it('in the agent routes (snake_case, a WhatsApp phone)', () => {
    expect(
      fields(() =>
        fromAgentInstant(
          {
            pickup_address: 'Hexham station',
            dropoff_address: 'Hexham',
            passenger_name: ' ',
            passenger_phone_whatsapp: bad.phone,
            passenger_email: bad.email,
            flight_number: bad.flight,
            depart_at: at,
          },
          null,
        ),
      ),
    ).toEqual(['passenger_phone_whatsapp', 'passenger_email', 'flight_number', 'passenger_name']);
    expect(
      fromAgentInstant(
        {
          pickup_address: 'Hexham station',
          dropoff_address: 'Hexham',
          passenger_name: 'Ada',
          passenger_phone_whatsapp: '+447400123456',
          agent: 'Concierge',
        },
        null,
      ).passenger.agent,
    ).toBe('Concierge');
  });

  it('in both forms of the v1 booking, with the email the route admitted', () => {
    const who = { email: bad.email, verified: false, apiKey: null };
    expect(
      fields(() =>
        fromV1(
          {
            pickup: 'Hexham station',
            dropoff: 'Hexham',
            departAt: at,
            passengerName: 'Ada',
            passengerEmail: 'ada@example.com',
            passengerPhone: bad.phone,
            flightNumber: bad.flight,
          },
          who,
        ),
      ),
    ).toEqual(['passengerPhone', 'passengerEmail', 'flightNumber']);
    expect(
      fields(() =>
        fromV1(
          {
            quote_id: '00000000-0000-4000-8000-000000000000',
            passenger_name: 'Ada',
            passenger_email: 'ada@example.com',
            passenger_phone: bad.phone,
          },
          who,
        ),
      ),
    ).toEqual(['passenger_phone', 'passenger_email']);
    const ok = fromV1(
      {
        pickup: 'Hexham station',
        dropoff: 'Hexham',
        departAt: at,
        passengerName: 'Ada',
        passengerEmail: 'ADA@example.com',
        passengerPhone: '+447400123456',
      },
      { email: 'ada@example.com', verified: true, apiKey: null },
    );
    expect(ok.passenger).toMatchObject({
      name: 'Ada',
      phone: '+447400123456',
      email: 'ada@example.com',
      emailVerified: true,
      paymentMethod: 'pay_driver',
    });
  });

  it("in start_booking, with the phone and email from the passenger's account", () => {
    expect(
      fields(() =>
        fromMcp(
          { pickup: 'Hexham station', dropoff: 'Hexham', passenger_name: 'Ada', flight_number: bad.flight },
          { accountId: 'acc-1', phone: bad.phone, email: bad.email, emailVerified: false },
        ),
      ),
    ).toEqual(['passenger_phone', 'passenger_email', 'flight_number']);
  });
});
