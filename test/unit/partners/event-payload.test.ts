// The status and amendment events a sender receives: built only from what was recorded when the status changed,
// so every delivery and replay of one event is the same bytes; signed so that the standardwebhooks
// library, as any receiver would use it, verifies it.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookHeaders } from '../../../src/partners/deliver.js';
import { buildEventPayload, eventBody, type PartnerEventFacts } from '../../../src/partners/event-payload.js';
import { PartnerEventSchema } from '../../../src/schemas/partner-events.js';

const facts: PartnerEventFacts = {
  id: 'evt_019a8c3f5e2b4c1d9e8f7a6b5c4d3e2f',
  bookingRef: 'TXAB12CD34EF',
  seq: 3,
  status: 'assigned',
  previousStatus: 'offered',
  jobRef: 'ACME-1',
  pickupAt: new Date('2026-12-24T06:30:00Z'),
  driverName: 'Sam Driver',
  driverVehicle: 'Skoda Octavia',
  driverPlate: 'MA12 XYZ',
  occurredAt: new Date('2026-12-24T06:12:03.456Z'),
};

describe('status event payload', () => {
  it('says which booking, which job, what status from what, in which order, and who is coming', () => {
    expect(buildEventPayload(facts)).toEqual({
      id: 'evt_019a8c3f5e2b4c1d9e8f7a6b5c4d3e2f',
      type: 'booking.status_changed',
      timestamp: '2026-12-24T06:12:03.456Z',
      data: {
        bookingReference: 'TXAB12CD34EF',
        jobRef: 'ACME-1',
        sequence: 3,
        status: 'assigned',
        previousStatus: 'offered',
        pickupAt: '2026-12-24T06:30:00.000Z',
        driver: { name: 'Sam Driver', vehicle: 'Skoda Octavia', plate: 'MA12 XYZ' },
      },
    });
    expect(PartnerEventSchema.safeParse(buildEventPayload(facts)).success).toBe(true);
  });

  it('has no driver before one accepts, and no previous status for the first event', () => {
    const first = buildEventPayload({
      ...facts,
      seq: 1,
      status: 'dispatching',
      previousStatus: null,
      driverName: null,
      driverVehicle: null,
      driverPlate: null,
    });
    expect(first.data).toMatchObject({ sequence: 1, status: 'dispatching', previousStatus: null, driver: null });
    expect(PartnerEventSchema.safeParse(first).success).toBe(true);
  });

  it('says which job was refused after its reply, and why, with the booking as it stands (job.rejected)', () => {
    const rejection = { action: 'amend' as const, code: 'job_cancelled', message: 'The job is cancelled.' };
    const event = buildEventPayload({ ...facts, type: 'job.rejected', status: 'cancelled', rejection });
    expect(event).toMatchObject({
      type: 'job.rejected',
      data: { bookingReference: 'TXAB12CD34EF', jobRef: 'ACME-1', sequence: 3, status: 'cancelled', ...rejection },
    });
    expect(event.data).not.toHaveProperty('previousStatus');
    expect(PartnerEventSchema.safeParse(event).success).toBe(true);
  });

  it('says what an amendment changed, as it stands now and as it stood (booking.amended)', () => {
    const changes = {
      changed: ['pickupAt' as const, 'fare' as const],
      pickup: 'Hexham station',
      dropoff: 'Corbridge',
      fare: 24.5,
      passengers: 2,
      vehicleType: 'saloon',
      wheelchair: false,
      previous: { pickupAt: '2026-12-24T06:00:00.000Z', pickup: 'Hexham station', dropoff: 'Corbridge', fare: 21 },
    };
    const amended = buildEventPayload({ ...facts, seq: 4, type: 'booking.amended', previousStatus: null, changes });
    expect(amended).toEqual({
      id: facts.id,
      type: 'booking.amended',
      timestamp: '2026-12-24T06:12:03.456Z',
      data: {
        bookingReference: 'TXAB12CD34EF',
        jobRef: 'ACME-1',
        sequence: 4,
        status: 'assigned',
        pickupAt: '2026-12-24T06:30:00.000Z',
        ...changes,
        driver: { name: 'Sam Driver', vehicle: 'Skoda Octavia', plate: 'MA12 XYZ' },
      },
    });
    expect(PartnerEventSchema.safeParse(amended).success).toBe(true);
    // A status change says nothing of amendments, whatever the row holds.
    expect(buildEventPayload({ ...facts, type: 'booking.status_changed', changes: null })).toEqual(
      buildEventPayload(facts),
    );
  });

  it('is the same bytes every time it is built', () => {
    expect(eventBody({ ...facts })).toBe(eventBody({ ...facts, pickupAt: new Date(facts.pickupAt) }));
    expect(JSON.parse(eventBody(facts))).toEqual(buildEventPayload(facts));
  });

  it('is signed as Standard Webhooks sign: the standardwebhooks library verifies it, and refuses it altered', () => {
    const secret = 'whsec_' + Buffer.from('a'.repeat(32)).toString('base64');
    const body = eventBody(facts);
    const headers = webhookHeaders({ id: facts.id, body, secrets: [secret] }, new Date());
    expect(headers['webhook-id']).toBe(facts.id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(buildEventPayload(facts));
    expect(() => new Webhook(secret).verify(body.replace('assigned', 'cancelled'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_other' })).toThrow();
  });

  it('carries one signature per secret while a rotated one is still honoured, so either verifies', () => {
    const old = 'whsec_' + Buffer.from('o'.repeat(32)).toString('base64');
    const next = 'whsec_' + Buffer.from('n'.repeat(32)).toString('base64');
    const body = eventBody(facts);
    const headers = webhookHeaders({ id: facts.id, body, secrets: [next, old] }, new Date());
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(body, headers)).toBeTruthy();
    expect(new Webhook(next).verify(body, headers)).toBeTruthy();
  });
});
