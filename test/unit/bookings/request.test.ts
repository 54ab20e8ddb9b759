// The one booking request (src/bookings/request/): the vehicle rule every source shares, quoted
// from docs/interface.md 2.6 ("use mpv or 6seater and larger for groups over 4; use wav for
// wheelchair access"), amendments, and each source's mapper giving the same request.
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../../src/http/problem.js';
import type { Partner, PartnerKind } from '../../../src/partners/store.js';
import { amendmentInput, defaultVehicleClass, jobSpec, vehicleClass, vehicleFromName } from '../../../src/bookings/request/index.js';
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
});

const problem = (run: () => unknown): ProblemError => {
  try {
    run();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a ProblemError');
};

describe('the vehicle rule', () => {
  it('gives up to 4 passengers a saloon, and larger groups the smallest of 6seater, 7seater and mpv that seats them', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(defaultVehicleClass)).toEqual(['saloon', 'saloon', 'saloon', 'saloon', '6seater', '6seater', '7seater', 'mpv']);
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

  it('reads a class named in free text, and refuses one it does not know', () => {
    expect(vehicleFromName(undefined)).toBeUndefined();
    expect(vehicleFromName('  ')).toBeUndefined();
    expect(vehicleFromName('Minibus')).toBe('mpv');
    expect(vehicleFromName('6-seater')).toBe('6seater');
    expect(vehicleFromName('wheelchair accessible')).toBe('wav');
    expect(problem(() => vehicleFromName('hovercraft', 'body[2].vehicleType')).extra.errors?.[0]?.field).toBe('body[2].vehicleType');
  });

  it('puts wheelchair access with the wav class, and only with it', () => {
    const at = new Date('2026-12-24T06:30:00Z');
    expect(jobSpec({ pickupAt: at, passengers: 1, vehicleType: 'wav', notes: null })).toEqual({ pickupAt: '2026-12-24T06:30:00.000Z', passengers: 1, vehicleType: 'wav', wheelchair: true, notes: null });
    expect(jobSpec({ pickupAt: at, passengers: 5, vehicleType: '6seater', notes: 'x' }).wheelchair).toBe(false);
  });
});

describe('an amendment', () => {
  const saloon = { passengers: 2, vehicleType: 'saloon' };

  it('gives a group that outgrows its class the spec\'s class, with its wheelchair access', () => {
    expect(amendmentInput(saloon, { passengers: 5 })).toEqual({ passengers: 5, vehicleType: '6seater', wheelchair: false });
  });

  it('changes only what it names while the class still seats the group', () => {
    expect(amendmentInput(saloon, { passengers: 3 })).toEqual({ passengers: 3 });
    expect(amendmentInput(saloon, { notes: 'Gate B' })).toEqual({ notes: 'Gate B' });
  });

  it('brings a named class\'s wheelchair access unless it says otherwise', () => {
    expect(amendmentInput(saloon, { vehicleType: 'wav' })).toEqual({ vehicleType: 'wav', wheelchair: true });
    expect(amendmentInput(saloon, { vehicleType: 'mpv', passengers: 7 })).toEqual({ vehicleType: 'mpv', passengers: 7, wheelchair: false });
  });

  it('is sent as it is when it names the whole job (partner intake)', () => {
    const whole = { pickupAt: '2026-12-24T06:30:00.000Z', passengers: 6, vehicleType: 'saloon', wheelchair: false, notes: null };
    expect(amendmentInput(saloon, whole)).toEqual(whole);
  });
});

describe('every source', () => {
  const at = '2026-12-24T06:30:00Z';
  const fiveJob = () => PartnerJobSchema.parse({ jobRef: 'J-1', pickup: 'Hexham station', dropoff: 'Hexham', pickupTime: at, passengers: 5 });
  const sources = () => ({
    agent: fromAgentInstant({ pickup_address: 'Hexham station', dropoff_address: 'Hexham', passenger_name: 'Ada', passenger_phone_whatsapp: '+447400123456', depart_at: at, passenger_count: 5 }, null),
    v1: fromV1(
      { pickup: 'Hexham station', dropoff: 'Hexham', departAt: at, passengerName: 'Ada', passengerEmail: 'ada@example.com', passengerPhone: '+447400123456', passengers: 5 },
      { email: 'ada@example.com', verified: true, apiKey: null },
    ),
    mcp: fromMcp({ pickup: 'Hexham station', dropoff: 'Hexham', pickup_time: at, passengers: 5, passenger_name: 'Ada' }, { accountId: 'acc-1', phone: '+447400123456', email: undefined, emailVerified: false }),
    partner: fromPartnerJob(partner('partner'), fiveJob(), 'body'),
    operator: fromPartnerJob(partner('operator'), fiveJob(), 'body'),
    supplier: fromPartnerJob(partner('supplier'), fiveJob(), 'body'),
  });

  it('asks for the same vehicle for five passengers with none named: the spec\'s 6seater', () => {
    const requests = sources();
    expect(Object.keys(requests).sort()).toEqual(['agent', 'mcp', 'operator', 'partner', 'supplier', 'v1']);
    for (const [source, r] of Object.entries(requests)) {
      expect(r.kind, source).toBe('trip');
      if (r.kind !== 'trip') continue;
      expect({ source, passengers: r.passengers, vehicleType: r.vehicleType }).toEqual({ source, passengers: 5, vehicleType: '6seater' });
    }
  });

  it('makes a sender\'s job reference the request\'s identity, and an operator\'s job its own', () => {
    const r = sources();
    expect(r.partner).toMatchObject({ source: 'partner', senderJob: { partnerId: 'p-partner', jobRef: 'J-1', operatorId: null }, pickupMayBePast: true });
    expect(r.operator).toMatchObject({ source: 'operator', senderJob: { partnerId: 'p-operator', jobRef: 'J-1', operatorId: 'p-operator' } });
    expect(r.v1).toMatchObject({ source: 'v1_direct', pickupMayBePast: false, awaitEmailConfirmation: false });
    expect(r.mcp).toMatchObject({ source: 'mcp', passengerAccountId: 'acc-1' });
  });

  it('keeps a class a sender names too small for the group, where the API refuses it', () => {
    const job = PartnerJobSchema.parse({ jobRef: 'J-2', pickup: 'Hexham station', dropoff: 'Hexham', pickupTime: at, passengers: 6, vehicleType: 'car' });
    expect(fromPartnerJob(partner('partner'), job, 'body[1]')).toMatchObject({ passengers: 6, vehicleType: 'saloon' });
    const err = problem(() => fromAgentInstant({ pickup_address: 'Hexham station', dropoff_address: 'Hexham', passenger_name: 'Ada', passenger_phone_whatsapp: '+447400123456', passenger_count: 6, vehicle_type: 'saloon' }, null));
    expect(err.code).toBe('vehicle_too_small');
  });

  it('names a partner job\'s unknown class as an invalid job at its place in the batch', () => {
    const job = PartnerJobSchema.parse({ jobRef: 'J-3', pickup: 'Hexham station', dropoff: 'Hexham', pickupTime: at, vehicleType: 'hovercraft' });
    const err = problem(() => fromPartnerJob(partner('partner'), job, 'body[4]'));
    expect(err).toMatchObject({ status: 400, code: 'invalid_job' });
    expect(err.extra.errors?.[0]?.field).toBe('body[4].vehicleType');
  });
});
