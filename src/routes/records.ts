import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffMember } from '../plugins/auth.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { text } from '../schemas/common.js';
import { exportRecords, recordAuthorities } from '../records/export.js';
import { recentExports, retentionMonths, setRetention } from '../records/store.js';
import { renderOpsRecordsPage } from '../pages/ops-records-page.js';
import { sendPage } from '../pages/send-page.js';

// The booking records a licensing officer may ask for (docs/records.md): staff export them by
// authority and London dates; each export is recorded; retention is set per authority by an admin.

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD');
const areaId = z.string().regex(/^[a-z0-9-]{1,60}$/, 'must be a licensing area id, e.g. manchester');

const ExportQuery = z
  .object({
    authority: areaId.describe('The licensing area (GET /api/ops/records/authorities), e.g. manchester'),
    from: day.describe('The first London day of bookings received'),
    to: day.describe('The last London day (inclusive)'),
    format: z.enum(['csv', 'json']).default('csv'),
    reason: text(200)
      .trim()
      .min(3, 'must say why (the officer, or the request), at least 3 characters')
      .describe('Why it is exported: recorded with the export, e.g. "PC Smith, Manchester licensing, request 123"'),
  })
  .strict();

const Authorities = z
  .object({
    authorities: z.array(
      z.object({
        id: z.string(),
        authority: z.string(),
        retention_months: z.number().int(),
        retention_set: z.boolean(),
      }),
    ),
    default_retention_months: z.number().int(),
    exports: z.array(
      z.object({
        by: z.string(),
        area_id: z.string(),
        from: z.string(),
        to: z.string(),
        format: z.string(),
        bookings: z.number().int(),
        reason: z.string(),
        at: z.string(),
      }),
    ),
  })
  .meta({ id: 'BookingRecordAuthorities' });

const RetentionParams = z.object({ authority: areaId }).strict();
const RetentionRequest = z.object({ months: z.number().int().min(1).max(120) }).strict();

export async function recordRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['ops'];
  const limited = { rateLimit: app.rateLimits.staff };
  const defaultMonths = s.config.BOOKING_RECORD_RETENTION_MONTHS;

  const authorities = async () => {
    const set = new Map((await retentionMonths(s.sql)).map((x) => [x.area_id, x.months]));
    return recordAuthorities().map((a) => ({
      ...a,
      retention_months: set.get(a.id) ?? defaultMonths,
      retention_set: set.has(a.id),
    }));
  };

  app.get('/ops/records', {
    schema: { hide: true },
    config: limited,
    handler: async (_request, reply) => sendPage(reply, renderOpsRecordsPage()),
  });

  r.get('/api/ops/records/authorities', {
    schema: {
      operationId: 'opsRecordAuthorities',
      tags,
      summary:
        'The licensing authorities booking records are kept for, how long each keeps them, and the latest exports',
      response: { 200: Authorities, ...problemResponses(401, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      return {
        authorities: await authorities(),
        default_retention_months: defaultMonths,
        exports: (await recentExports(s.sql)).map((e) => ({
          by: e.staff_name,
          area_id: e.area_id,
          from: e.from_date,
          to: e.to_date,
          format: e.format,
          bookings: e.bookings,
          reason: e.reason,
          at: e.at.toISOString(),
        })),
      };
    },
  });

  r.get('/api/ops/records', {
    schema: {
      operationId: 'opsExportRecords',
      tags,
      summary: "One licensing authority's booking records for a range of London days, as CSV or JSON (recorded)",
      description:
        'Every booking received in the range whose pickup lies in the authority: passenger name, when received, how and by whom, pick-up point and requested time, destination, fare quoted, each driver allocated (name, licence, vehicle registration, when, by whom), any sub-contract, and how it ended. CSV cells are never formulas. Each export is recorded with its reason.',
      querystring: ExportQuery,
      response: problemResponses(400, 401, 429),
    },
    config: limited,
    handler: async (request, reply) => {
      const staff = await staffMember(s, request);
      const q = request.query;
      const out = await exportRecords(s, staff, {
        areaId: q.authority,
        from: q.from,
        to: q.to,
        format: q.format,
        reason: q.reason,
      });
      return reply
        .header('content-type', out.contentType)
        .header('content-disposition', `attachment; filename="${out.filename}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('x-booking-count', String(out.bookings))
        .send(out.body as never); // the file itself, not a JSON body
    },
  });

  r.put('/api/ops/records/retention/:authority', {
    schema: {
      operationId: 'opsSetRecordRetention',
      tags,
      summary: "How many months an authority's booking records are kept (an administrator's change, recorded)",
      params: RetentionParams,
      body: RetentionRequest,
      response: { 200: Authorities.shape.authorities.element, ...problemResponses(400, 401, 403, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request, 'admin');
      const known = (await authorities()).find((a) => a.id === request.params.authority);
      if (!known) throw new ProblemError(404, 'unknown_authority', `No licensing area ${request.params.authority}.`);
      await setRetention(s.sql, { areaId: known.id, months: request.body.months, setBy: staff.name });
      return { ...known, retention_months: request.body.months, retention_set: true };
    },
  });
}
