import { z } from 'zod';
import { text } from './common.js';
import { AppliedRule } from './quote.js';

// The meter calculator's contract (GET /api/ops/meter, src/routes/meter.ts).

export const MeterQuery = z
  .object({
    area: text(60)
      .regex(/^[a-z0-9-]+$/)
      .describe('Tariff area id, e.g. london-tfl, manchester, national-default (GET /api/ops/meter/areas lists them)'),
    at: text(40).describe(
      'When the hire starts: London wall time (2023-08-15T14:00) or an ISO 8601 instant with its offset',
    ),
    miles: z.coerce.number().min(0).max(500).optional().describe('Distance in miles (or give meters)'),
    meters: z.coerce.number().int().min(0).max(800_000).optional(),
    minutes: z.coerce.number().min(0).max(1_440).optional().describe('Time the hire takes, in minutes (or seconds)'),
    seconds: z.coerce.number().int().min(0).max(86_400).optional(),
    country: z
      .enum(['England', 'Scotland', 'Wales', 'Northern Ireland'])
      .optional()
      .describe('Whose bank holidays, where the table follows the pickup’s nation (national-default)'),
  })
  .strict();

export const MeterReply = z
  .object({
    area: z.string(),
    authority: z.string(),
    table: z.object({
      effective_from: z.string().describe('First day of the table in force (Europe/London)'),
      status: z.string(),
      provisional: z.boolean().describe('Some figure used is not the council’s own published one'),
      sources: z.array(z.string()),
    }),
    tariff: z.string().describe('The tariff (period) in force, e.g. "Tariff 1 (weekday day)"'),
    at_local: z.string().describe('The moment in Europe/London, with offset'),
    distance_meters: z.number().int(),
    duration_seconds: z.number().int(),
    meter: z.number().describe('GBP the meter shows'),
    meter_pence: z.number().int(),
    rules: z
      .array(AppliedRule)
      .describe('How the meter reached it: the table’s arithmetic, then the tariff and supplements in force'),
  })
  .meta({ id: 'MeterReading' });

export const MeterAreas = z
  .object({ areas: z.array(z.object({ id: z.string(), authority: z.string() })) })
  .meta({ id: 'MeterAreas' });
