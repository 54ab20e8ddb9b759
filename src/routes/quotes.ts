import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { vehicleClass } from '../bookings/request/index.js';
import { problemResponses } from '../http/problem.js';
import { createQuote } from '../quotes/create-quote.js';
import { presentSimpleQuote, presentV1Quote } from '../quotes/present-quote.js';
import { SimpleQuoteRequest, SimpleQuoteResponse, V1QuoteRequest, V1QuoteResponse } from '../schemas/quote.js';

export async function quoteRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  // Both quote paths share one hourly allowance per caller: they are one pricing path.
  const rateLimit = app.rateLimits.quote;

  r.post('/api/public/v1/quote', {
    schema: {
      operationId: 'estimateFare',
      tags: ['quotes'],
      summary: 'Live fare quote in GBP with a prefilled booking link',
      description:
        "Prices the journey on the published hackney carriage tariff of the pickup's licensing area (or an approved partner rate), itemising every rule applied. Limited to 30 requests per hour per caller (API key, else IP).",
      body: V1QuoteRequest,
      response: { 200: V1QuoteResponse, ...problemResponses(400, 401, 413, 415, 422, 429, 503) },
    },
    config: { rateLimit },
    handler: async (request) => {
      const b = request.body;
      const quote = await createQuote(s, {
        contract: 'v1',
        pickup: b.pickup,
        dropoff: b.dropoff,
        departAt: b.departAt,
        // A quote's class is the booking's when it is redeemed: the same rule as every booking request.
        vehicleType: vehicleClass(b.vehicleType ?? b.vehicle_type, b.passengers ?? 1, {
          field: b.vehicle_type ? 'vehicle_type' : 'vehicleType',
          tooSmall: 'refuse',
        }),
        passengers: b.passengers ?? 1,
        meetAndGreet: b.meetAndGreet ?? false,
        worldwide: b.worldwide ?? false,
        apiKey: request.caller.kind === 'key' ? request.caller.key : null,
      });
      return presentV1Quote(quote, s.config.PUBLIC_BASE_URL);
    },
  });

  r.post('/api/public/quotes/estimate', {
    schema: {
      operationId: 'getTaxiQuote',
      tags: ['quotes'],
      summary: 'Upfront fare quote (simple agent contract; alias of estimateFare)',
      body: SimpleQuoteRequest,
      response: { 200: SimpleQuoteResponse, ...problemResponses(400, 401, 413, 415, 422, 429, 503) },
    },
    config: { rateLimit },
    handler: async (request) => {
      const b = request.body;
      const quote = await createQuote(s, {
        contract: 'simple',
        pickup: b.pickup_address,
        dropoff: b.dropoff_address,
        departAt: b.depart_at,
        vehicleType: vehicleClass(b.vehicle_type, b.passenger_count, { field: 'vehicle_type', tooSmall: 'refuse' }),
        passengers: b.passenger_count,
        meetAndGreet: false,
        worldwide: false,
        apiKey: request.caller.kind === 'key' ? request.caller.key : null,
      });
      return presentSimpleQuote(quote);
    },
  });
}
