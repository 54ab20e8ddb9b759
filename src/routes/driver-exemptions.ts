import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffMember } from '../plugins/auth.js';
import { problemResponses } from '../http/problem.js';
import { calendarDate, text } from '../schemas/common.js';
import { DriverIdParams } from '../schemas/drivers.js';
import { EXEMPTIONS } from '../drivers/exemption-store.js';
import {
  driverExemptions,
  recordDriverExemption,
  removeDriverExemption,
  type DriverExemption,
} from '../drivers/exemptions.js';

// A driver's medical exemption certificates, kept with their papers (docs/accessibility.md): staff
// record one from the council's certificate; an administrator's act, recorded with their name.

const ExemptionRequest = z
  .object({
    certificate_number: text(60).trim().min(1, 'must be the certificate number'),
    issued_by: text(120).trim().min(2, 'must name the council that issued it').describe('e.g. Leeds City Council'),
    expires_on: calendarDate.describe('The last day it is valid'),
  })
  .strict();

const ExemptionParams = DriverIdParams.extend({ exempts: z.enum(EXEMPTIONS) }).strict();

const Exemptions = z
  .object({
    exemptions: z.array(
      z.object({
        exempts: z
          .enum(EXEMPTIONS)
          .describe(
            'assistance_dogs (s.169): not asked to carry an assistance dog; wheelchair_assistance (s.166): not asked for a wheelchair user',
          ),
        certificate_number: z.string(),
        issued_by: z.string(),
        expires_on: z.string(),
        in_date: z.boolean().describe('Valid today (Europe/London); an expired certificate exempts from nothing'),
        recorded_by: z.string(),
        recorded_at: z.string(),
      }),
    ),
  })
  .meta({ id: 'DriverMedicalExemptions' });

const shown = (list: DriverExemption[]) => ({
  exemptions: list.map((e) => ({
    exempts: e.exempts,
    certificate_number: e.certificate_number,
    issued_by: e.issued_by,
    expires_on: e.expires_on,
    in_date: e.inDate,
    recorded_by: e.recorded_by,
    recorded_at: e.recorded_at.toISOString(),
  })),
});

export async function driverExemptionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['ops'];
  const limited = { rateLimit: app.rateLimits.staff };

  r.get('/api/ops/drivers/:driverId/exemptions', {
    schema: {
      operationId: 'opsDriverExemptions',
      tags,
      summary: "A driver's medical exemption certificates on file",
      params: DriverIdParams,
      response: { 200: Exemptions, ...problemResponses(400, 401, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      return shown(await driverExemptions(s.sql, request.params.driverId));
    },
  });

  r.put('/api/ops/drivers/:driverId/exemptions/:exempts', {
    schema: {
      operationId: 'opsRecordDriverExemption',
      tags,
      summary: "Records a driver's medical exemption certificate (an administrator's act, recorded)",
      description:
        'Dispatch then does not ask the driver for what the certificate exempts (an assistance dog, or a wheelchair user), until its expiry day has passed; for everything else they are asked as before. Never a reason to charge a passenger. A new certificate replaces the last of its kind.',
      params: ExemptionParams,
      body: ExemptionRequest,
      response: { 200: Exemptions, ...problemResponses(400, 401, 403, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request, 'admin');
      const b = request.body;
      return shown(
        await recordDriverExemption(
          s.sql,
          request.params.driverId,
          {
            exempts: request.params.exempts,
            certificateNumber: b.certificate_number,
            issuedBy: b.issued_by,
            expiresOn: b.expires_on,
          },
          staff.name,
        ),
      );
    },
  });

  r.delete('/api/ops/drivers/:driverId/exemptions/:exempts', {
    schema: {
      operationId: 'opsRemoveDriverExemption',
      tags,
      summary: "Removes a driver's medical exemption certificate (withdrawn, or recorded in error)",
      params: ExemptionParams,
      response: { 200: Exemptions, ...problemResponses(400, 401, 403, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request, 'admin');
      return shown(await removeDriverExemption(s.sql, request.params.driverId, request.params.exempts));
    },
  });
}
