import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffMember } from '../plugins/auth.js';
import { problemResponses } from '../http/problem.js';
import { OPERATOR_LICENCE_HOLDERS, OPERATOR_LICENCE_KINDS } from '../model/operator-licences.js';
import { fleetLicences, putLicenceOnFile, type FleetLicences } from '../operator-licences/record.js';
import { OperatorLicenceHolderParams, OperatorLicenceRequest } from '../schemas/operator-licences.js';

// The licences of the operators our bookings may be sub-contracted to (docs/records.md,
// "Sub-contracting"): a partner fleet whose drivers we dispatch, or an exchange fleet we hand jobs
// to. Neither is given a booking of ours until its licence is on file here, of the kind the vehicle
// needs and valid at pickup. Putting one on file is an administrator's act, recorded with their name.

const Licences = z
  .object({
    holder_kind: z.enum(OPERATOR_LICENCE_HOLDERS),
    holder_id: z.string(),
    holder_name: z.string(),
    licences: z.array(
      z.object({
        authority: z.string(),
        number: z.string(),
        kind: z.enum(OPERATOR_LICENCE_KINDS),
        expires_on: z.string(),
        in_date: z.boolean().describe('Valid today (Europe/London)'),
        recorded_by: z.string(),
        recorded_at: z.string(),
      }),
    ),
  })
  .meta({ id: 'OperatorLicences' });

const shown = (f: FleetLicences) => ({
  holder_kind: f.holderKind,
  holder_id: f.holderId,
  holder_name: f.holderName,
  licences: f.licences.map((l) => ({
    authority: l.authority,
    number: l.number,
    kind: l.kind,
    expires_on: l.expires_on,
    in_date: l.inDate,
    recorded_by: l.recorded_by,
    recorded_at: l.recorded_at.toISOString(),
  })),
});

export async function operatorLicenceRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['ops'];
  const limited = { rateLimit: app.rateLimits.staff };
  const holderOf = (p: { holder_kind: FleetLicences['holderKind']; holder_id: string }) => ({
    kind: p.holder_kind,
    id: p.holder_id,
  });

  r.get('/api/ops/operator-licences/:holder_kind/:holder_id', {
    schema: {
      operationId: 'opsOperatorLicences',
      tags,
      summary: "A fleet's operator licences on file, latest expiry first",
      params: OperatorLicenceHolderParams,
      response: { 200: Licences, ...problemResponses(400, 401, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      return shown(await fleetLicences(s.sql, holderOf(request.params)));
    },
  });

  r.put('/api/ops/operator-licences/:holder_kind/:holder_id', {
    schema: {
      operationId: 'opsRecordOperatorLicence',
      tags,
      summary: "Puts a fleet's operator licence on file, or renews one (an administrator's act, recorded)",
      description:
        'A partner fleet is offered none of our bookings, and an exchange fleet is handed none, until it has a licence on file of the kind the vehicle needs (private hire for up to 8 passenger seats, PSV for 9 or more) valid at the pickup. The same authority, number and kind again moves its expiry.',
      params: OperatorLicenceHolderParams,
      body: OperatorLicenceRequest,
      response: { 200: Licences, ...problemResponses(400, 401, 403, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request, 'admin');
      return shown(await putLicenceOnFile(s.sql, holderOf(request.params), request.body, staff.name));
    },
  });
}
