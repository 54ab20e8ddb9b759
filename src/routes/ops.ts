import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordStaffAction, staffActionsFor } from '../auth/staff.js';
import { decideDriver } from '../drivers/onboarding.js';
import { driverDocument, driverDocuments, findDriver, fleetHistory, pendingFleetRequest } from '../drivers/store.js';
import { staffMember } from '../plugins/auth.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { normalisePhone } from '../passengers/phone.js';
import { setPassengerBlocked } from '../passengers/standing.js';
import {
  DriverDecisionRequest,
  DriverIdParams,
  OpsDecisionReply,
  OpsDriver,
  OpsDriverDetail,
  PassengerBlockReply,
  PassengerBlockRequest,
  RateOverrideReply,
  RateOverrideRequest,
  TrialExtensionReply,
  TrialExtensionRequest,
} from '../schemas/drivers.js';
import { gbp, text } from '../schemas/common.js';
import { BookingRefParams, BookingView } from '../schemas/booking.js';
import {
  EndTripReply,
  EndTripRequest,
  OpsAmendRequest,
  OpsBridgeReply,
  OpsBridgeRequest,
  OpsCancelRequest,
  OpsOfferReply,
  OpsOfferRequest,
  OpsReleaseReply,
  OpsReleaseRequest,
  PartnerIdParams,
} from '../schemas/ops.js';
import { setBridgePaused } from '../partners/bridge-pause.js';
import { amendAsOps } from '../bookings/amend-as-ops.js';
import { cancelAsOps } from '../bookings/cancel.js';
import { endTrip } from '../bookings/end-trip.js';
import { presentBooking } from '../bookings/present.js';
import { offerToDriverAsOps } from '../drivers/offer-to-driver.js';
import { releaseDriverAsOps } from '../bookings/release-driver.js';
import { NOTHING_DUE } from '../model/bookings.js';
import { approveRate } from '../quotes/approve-rate-override.js';
import { Refusal } from '../refusal.js';
import { DRIVER_PAGE_DEFAULT, DRIVER_PAGE_MAX, driverSummary, opsDriverPage } from '../ops/driver-list.js';

// The operators' and admins' API (Authorization: Bearer stf_...): review applicants, approve or
// reject them, suspend and reinstate drivers, block passengers, extend trials (admins), end a trip
// with the passenger on board. Every action is recorded with who, when and why (staff_actions),
// and shown with the driver, as is the fleet a driver asked to join and every grant, refusal and
// removal of a fleet membership.

const DocumentParams = z.object({ driverId: text(60).regex(/^[A-Za-z0-9_-]+$/), documentId: text(20).regex(/^\d+$/) });

const DriverPageQuery = z.object({
  status: z
    .enum(['applicant', 'approved', 'rejected', 'suspended'])
    .optional()
    .describe('Default: every status, newest first'),
  q: text(100)
    .trim()
    .optional()
    .describe(
      'Search: words of the name (or email, id, registration), or a phone number as typed (07400 123456, +44 7400 123456, or part of one)',
    ),
  limit: z.coerce.number().int().min(1).max(DRIVER_PAGE_MAX).default(DRIVER_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const OpsDriverCard = OpsDriver.extend({
  documents: OpsDriverDetail.shape.documents,
  actions: OpsDriverDetail.shape.actions,
  fleet: OpsDriverDetail.shape.fleet,
}).meta({ id: 'OpsDriverCard' });

const OpsDriverPage = z
  .object({
    status: z.enum(['applicant', 'approved', 'rejected', 'suspended']).nullable(),
    q: z.string().nullable(),
    total: z.number().int().describe('Drivers matching, on every page'),
    limit: z.number().int(),
    offset: z.number().int(),
    next_offset: z.number().int().nullable().describe('The next page’s offset; null on the last'),
    previous_offset: z.number().int().nullable(),
    drivers: z.array(OpsDriverCard),
  })
  .meta({ id: 'OpsDriverPage' });

export async function opsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const tags = ['ops'];
  const limited = { rateLimit: app.rateLimits.staff };

  r.get('/api/ops/drivers', {
    schema: {
      operationId: 'opsListDrivers',
      tags,
      summary:
        'A page of drivers, by status (applicants oldest first, in line; the rest by name), searched by name or phone, each with its documents, staff actions and fleet history',
      description:
        'One request per look, however many drivers: the console pages with limit and offset (50 a page by default, at most 200) and says how many match in total.',
      querystring: DriverPageQuery,
      response: { 200: OpsDriverPage, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      return opsDriverPage(s, request.query);
    },
  });

  r.get('/api/ops/drivers/:driverId', {
    schema: {
      operationId: 'opsGetDriver',
      tags,
      summary: 'One driver: details, documents (metadata) and every staff action on them',
      params: DriverIdParams,
      response: { 200: OpsDriverDetail, ...problemResponses(400, 401, 404, 429) },
    },
    config: limited,
    handler: async (request) => {
      await staffMember(s, request);
      const d = await findDriver(s.sql, request.params.driverId);
      if (!d) throw new ProblemError(404, 'driver_not_found', `No driver ${request.params.driverId}.`);
      const documents = await driverDocuments(s.sql, d.id);
      const actions = await staffActionsFor(s.sql, 'driver', d.id);
      const fleet = await fleetHistory(s.sql, d.id);
      return {
        driver: driverSummary(d, fleet.requests.find((x) => x.status === 'pending')?.fleet_id ?? null),
        fleet: {
          requests: fleet.requests.map((x) => ({
            id: x.id,
            fleet_id: x.fleet_id,
            fleet_name: x.fleet_name,
            status: x.status,
            requested_at: x.requested_at.toISOString(),
            decided_at: x.decided_at?.toISOString() ?? null,
          })),
          history: fleet.events.map((e) => ({
            event: e.event,
            fleet_id: e.fleet_id,
            by_kind: e.by_kind,
            by: e.by_name,
            reason: e.reason,
            at: e.at.toISOString(),
          })),
        },
        documents: documents.map((x) => ({
          id: x.id,
          kind: x.kind,
          content_type: x.content_type,
          size_bytes: x.size_bytes,
          sha256: x.sha256,
          uploaded_at: x.uploaded_at.toISOString(),
        })),
        actions: actions.map((a) => ({
          action: a.action,
          reason: a.reason,
          by: a.staff_name,
          role: a.staff_role,
          at: a.at.toISOString(),
          details: a.details,
        })),
      };
    },
  });

  r.get('/api/ops/drivers/:driverId/documents/:documentId', {
    schema: {
      operationId: 'opsGetDriverDocument',
      tags,
      summary: 'A licensing document, to staff only (downloaded, never rendered inline)',
      params: DocumentParams,
      response: problemResponses(400, 401, 404, 429),
    },
    config: limited,
    handler: async (request, reply) => {
      await staffMember(s, request);
      const doc = await driverDocument(s.sql, request.params.driverId, request.params.documentId);
      if (!doc) throw new ProblemError(404, 'document_not_found', 'No such document.');
      const ext = doc.content_type === 'application/pdf' ? 'pdf' : doc.content_type === 'image/png' ? 'png' : 'jpg';
      return reply
        .header('content-type', doc.content_type)
        .header('content-disposition', `attachment; filename="${request.params.driverId}-${doc.kind}.${ext}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(doc.data as never); // the file itself, not a JSON body
    },
  });

  r.post('/api/ops/drivers/:driverId/decision', {
    schema: {
      operationId: 'opsDecideDriver',
      tags,
      summary:
        'Approve or reject an applicant (and, on approval, grant the fleet they asked to join); suspend or reinstate a driver (recorded with who, when and why)',
      params: DriverIdParams,
      body: DriverDecisionRequest,
      response: { 200: OpsDecisionReply, ...problemResponses(400, 401, 404, 409, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const { action, reason, grant_fleet_id: grantFleetId } = request.body;
      if (action !== 'approve' && !reason) {
        throw new ProblemError(400, 'validation_failed', `Say why (${action}).`, {
          errors: [{ field: 'body.reason', message: 'is required' }],
        });
      }
      const d = await decideDriver(s, staff, request.params.driverId, action, reason, grantFleetId);
      return { driver: driverSummary(d, (await pendingFleetRequest(s.sql, d.id))?.fleet_id ?? null) };
    },
  });

  r.post('/api/ops/bookings/:ref/cancel', {
    schema: {
      operationId: 'opsCancelBooking',
      tags,
      summary:
        'Cancel a live booking, saying why (recorded); the passenger is told it was cancelled by Direct Taxi operations, the driver that it is cancelled',
      description:
        'Idempotent: a cancelled booking answers the same. A completed booking is 409 booking_closed; one with the passenger on board is 409 trip_in_progress (end the trip instead).',
      params: BookingRefParams,
      body: OpsCancelRequest,
      response: { 200: BookingView, ...problemResponses(400, 401, 404, 409, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      return presentBooking(
        await cancelAsOps(s, staff, request.params.ref, request.body.reason),
        s.config.PUBLIC_BASE_URL,
      );
    },
  });

  r.post('/api/ops/bookings/:ref/amend', {
    schema: {
      operationId: 'opsAmendBooking',
      tags,
      summary:
        "Change a live booking's pickup time, pickup or drop-off, saying why (recorded); priced again on the tariff, the passenger texted the booking as it now stands",
      description:
        'A new pickup or drop-off takes the job off a driver holding it (they are told) and dispatches it again; a new time keeps a driver who still fits. 409 too_late_to_amend once the passenger is on board, amend_driver_on_the_way for a new place once the driver is on the way. A place the geocoder cannot place is 422 with suggestions, as for a quote.',
      params: BookingRefParams,
      body: OpsAmendRequest,
      response: { 200: BookingView, ...problemResponses(400, 401, 404, 409, 422, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const { pickup, dropoff, pickup_at: pickupAt, reason } = request.body;
      return presentBooking(
        await amendAsOps(s, staff, request.params.ref, { pickup, dropoff, pickupAt, reason }),
        s.config.PUBLIC_BASE_URL,
      );
    },
  });

  r.post('/api/ops/bookings/:ref/offer', {
    schema: {
      operationId: 'opsOfferToDriver',
      tags,
      summary:
        'Offer a booking nobody holds to a driver you name (recorded); they get the job card and answer in the app',
      description:
        'Answered once the card is out. A decline or silence puts the booking back in the cascade. 409 already_assigned when a driver holds it (release them first), driver_busy when the named driver holds another card or a job at that time, driver_cannot_work when they are not approved; 404 driver_not_found.',
      params: BookingRefParams,
      body: OpsOfferRequest,
      response: { 200: OpsOfferReply, ...problemResponses(400, 401, 404, 409, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const state = await offerToDriverAsOps(s, staff, request.params.ref, request.body.driver_id, request.body.reason);
      return {
        booking_reference: state.ref,
        offered_to: request.body.driver_id,
        offer_expires_at: state.offer?.expiresAt ?? '',
      };
    },
  });

  r.post('/api/ops/bookings/:ref/release', {
    schema: {
      operationId: 'opsReleaseDriver',
      tags,
      summary:
        'Take the job off the driver who holds it (recorded) and dispatch it again; the driver and the passenger are told',
      description:
        'For a driver stuck, unreachable or no longer right for the job, before the passenger is on board (then 409 trip_in_progress: end the trip). A booking no driver holds is 409 no_driver_to_release.',
      params: BookingRefParams,
      body: OpsReleaseRequest,
      response: { 200: OpsReleaseReply, ...problemResponses(400, 401, 404, 409, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const { ref, driverId } = await releaseDriverAsOps(s, staff, request.params.ref, request.body.reason);
      return { booking_reference: ref, released_driver_id: driverId, status: 'dispatching_again' as const };
    },
  });

  r.post('/api/ops/bookings/:ref/end', {
    schema: {
      operationId: 'opsEndTrip',
      tags,
      summary:
        'End a trip with the passenger on board: completed and settled as ops say (an immutable payment record, recorded by ops)',
      description:
        'For a trip that cannot be finished from the driver side (its driver suspended, their app broken). settlement is what was received ({amount, method}) or {nothing_due: true, reason}. The passenger and the driver are texted how it was settled. A completed trip not yet settled is settled the same way. Anything else is 409 (trip_not_in_progress, trip_already_settled). Idempotent: a repeat answers the first record with ended_now false.',
      params: BookingRefParams,
      body: EndTripRequest,
      response: { 200: EndTripReply, ...problemResponses(400, 401, 404, 409, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const { reason, settlement } = request.body;
      const { ref, payment, endedNow } = await endTrip(s, staff, request.params.ref, {
        reason,
        settlement:
          'nothing_due' in settlement
            ? { nothingDue: settlement.reason }
            : { amountPence: Math.round(settlement.amount * 100), method: settlement.method },
      });
      return {
        booking_reference: ref,
        status: 'completed' as const,
        nothing_due: payment.method === NOTHING_DUE,
        payment: {
          amount: gbp(payment.amountPence),
          method: payment.method,
          recorded_at: payment.recordedAt,
          recorded_by: payment.recordedBy,
        },
        ended_now: endedNow,
      };
    },
  });

  r.post('/api/ops/drivers/:driverId/trial', {
    schema: {
      operationId: 'opsExtendTrial',
      tags,
      summary: 'Extend a driver’s free trial (administrators only)',
      description:
        'At most 90 days at a time, and a trial of at most 365 days in all (90 or 30 days free, then every extension): 422 beyond either. A trial that has ended is not extended (409).',
      params: DriverIdParams,
      body: TrialExtensionRequest,
      response: { 200: TrialExtensionReply, ...problemResponses(400, 401, 403, 404, 409, 422, 429, 503) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request, 'admin');
      const { days, reason } = request.body;
      // The subscription workflow's own refusals (trial ended, a bad or too long extension) are
      // told by its client (src/billing/subscription-client.ts).
      const state = await s.subscriptions.extendTrial(request.params.driverId, { days, reason, by: staff.name });
      if (!state)
        throw Refusal.notFound(
          'no_subscription',
          `Driver ${request.params.driverId} has no subscription (not approved yet?).`,
        );
      await recordStaffAction(s.sql, {
        staffId: staff.id,
        action: 'trial.extend',
        subjectKind: 'driver',
        subjectId: request.params.driverId,
        reason,
        details: { days },
      });
      return { trial_ends_at: state.trialEndsAt, trial_days_remaining: state.trialDaysRemaining };
    },
  });

  r.post('/api/ops/passengers', {
    schema: {
      operationId: 'opsBlockPassenger',
      tags,
      summary: 'Block or unblock a passenger by email or phone (recorded)',
      description:
        'A blocked mailbox is blocked in every spelling (case, +tags, Gmail dots, googlemail.com); a blocked phone in every format. Blocks hold on every route: agent and v1 bookings, quotes by email, sign-in, the MCP tools and partner jobs that name the passenger.',
      body: PassengerBlockRequest,
      response: { 200: PassengerBlockReply, ...problemResponses(400, 401, 429) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const { email, phone, action, reason } = request.body;
      let who: { email: string } | { phone: string };
      if (email) who = { email };
      else {
        const p = normalisePhone(phone ?? '');
        if (!p.ok)
          throw new ProblemError(400, 'validation_failed', p.reason, {
            errors: [{ field: 'body.phone', message: p.reason }],
          });
        who = { phone: p.e164 };
      }
      const blockedKey = await setPassengerBlocked(s.sql, staff, who, action === 'block', reason);
      return { blocked: action === 'block', identifier: blockedKey };
    },
  });

  r.post('/api/ops/partners/:partnerId/bridge', {
    schema: {
      operationId: 'opsPauseOperatorBridge',
      tags,
      summary: 'Pause or resume an operator’s bridge (recorded)',
      description:
        'A paused bridge answers the operator’s new requests 403 bridge_paused; jobs it already sent are kept and go on as booked. Pausing a paused bridge (or resuming a running one) changes and records nothing (changed: false). 404 for no such partner, 409 not_an_operator for a partner or supplier.',
      params: PartnerIdParams,
      body: OpsBridgeRequest,
      response: { 200: OpsBridgeReply, ...problemResponses(400, 401, 404, 409, 429) },
    },
    config: limited,
    handler: async (request) => {
      const staff = await staffMember(s, request);
      const state = await setBridgePaused(s.sql, staff, request.params.partnerId, request.body);
      return {
        partner_id: state.partnerId,
        bridge_paused: state.paused,
        changed: state.changed,
        actions: state.actions.map((a) => ({ ...a, at: a.at.toISOString() })),
      };
    },
  });

  r.post('/api/ops/rate-overrides', {
    schema: {
      operationId: 'opsApproveRateOverride',
      tags,
      summary:
        'Approve a driver’s or partner’s own rate against the council tariff (the approver and time are part of the record)',
      description:
        'The driver or partner must exist (404 otherwise). The adjustment is from -50% to +100% on the meter, the minimum fare at most 200 GBP, and the window one the rate can be in force in: it starts within 366 days and, if it ends, ends in the future and after it starts (400 naming the field otherwise).',
      body: RateOverrideRequest,
      response: { 201: RateOverrideReply, ...problemResponses(400, 401, 404, 429) },
    },
    config: limited,
    handler: async (request, reply) => {
      const staff = await staffMember(s, request);
      const b = request.body;
      const o = await approveRate(s, staff, {
        scope: b.scope,
        subjectId: b.subject_id,
        adjustmentBasisPoints: b.adjustment_basis_points,
        minimumFarePence: b.minimum_fare_pence,
        vehicleTypes: b.vehicle_types,
        effectiveFrom: b.effective_from ? new Date(b.effective_from) : null,
        effectiveTo: b.effective_to ? new Date(b.effective_to) : null,
        reason: b.reason,
      });
      return reply.code(201).send({
        id: o.id,
        scope: o.scope,
        subject_id: o.subjectId,
        adjustment_basis_points: o.adjustmentBasisPoints,
        minimum_fare_pence: o.minimumFarePence,
        approved_by: o.approvedBy,
        approved_at: o.approvedAt,
      });
    },
  });
}
