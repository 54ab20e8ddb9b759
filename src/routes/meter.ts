import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { problemResponses } from '../http/problem.js';
import { staffMember } from '../plugins/auth.js';
import { meterAreas, meterQuestion, meterReading } from '../pricing/meter-calculator.js';
import { MeterAreas, MeterQuery, MeterReply } from '../schemas/meter.js';

// The meter calculator for ops (issue 36, item 3; docs/pricing.md): what a council's meter shows
// for a distance and a time, at a moment, in an area. `npm run meter` asks the same from a shell.

export async function meterRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['ops'];
  const config = { rateLimit: app.rateLimits.staff };

  r.get('/api/ops/meter', {
    schema: {
      operationId: 'opsMeterReading',
      tags,
      summary: 'What the meter shows for a distance and a time, on the table in force at a moment in an area',
      description:
        'The quote engine on a hire with no extras of its own (one passenger, not at an airport), so it agrees with a quote for the same distance, time and area. The rule lines show the arithmetic.',
      querystring: MeterQuery,
      response: { 200: MeterReply, ...problemResponses(400, 401, 422, 429) },
    },
    config,
    handler: async (request) => {
      await staffMember(s, request);
      const q = meterQuestion(request.query);
      const m = meterReading(q);
      return {
        area: m.areaId,
        authority: m.authority,
        table: { effective_from: m.effectiveFrom, status: m.status, provisional: m.provisional, sources: m.sources },
        tariff: m.period,
        at_local: m.localAt,
        distance_meters: q.distanceMeters,
        duration_seconds: q.durationSeconds,
        meter: m.meterPence / 100,
        meter_pence: m.meterPence,
        rules: m.rules.map((x) => ({
          code: x.code,
          description: x.description,
          amount: x.amountPence / 100,
          amount_pence: x.amountPence,
        })),
      };
    },
  });

  r.get('/api/ops/meter/areas', {
    schema: {
      operationId: 'opsMeterAreas',
      tags,
      summary: 'The tariff areas the meter calculator (and every quote) prices on',
      response: { 200: MeterAreas, ...problemResponses(401, 429) },
    },
    config,
    handler: async (request) => {
      await staffMember(s, request);
      return { areas: meterAreas() };
    },
  });
}
