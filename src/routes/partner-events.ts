import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiKeyStore } from '../auth/api-keys.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { authenticateSender } from '../partners/auth.js';
import { isStandardWebhook, receiveExchangeEvent } from '../exchange/inbound.js';
import { applyFleetStatus } from '../partners/fleet-status.js';
import { parseJsonBytes, rawBody, readJsonAsBytes } from '../partners/raw-body.js';
import type { Partner } from '../partners/store.js';
import {
  listEvents,
  registerCallback,
  replayEvent,
  rotateWebhookSecret,
  unregisterCallback,
  webhookRegistration,
} from '../partners/webhooks.js';
import {
  BookingStatusHookReply,
  BookingStatusHookRequest,
  ExchangeEventReply,
  PartnerEventListQuery,
  PartnerEventListSchema,
  PartnerEventParams,
  ReplayReplySchema,
  WebhookRegistrationRequest,
  WebhookRegistrationSchema,
} from '../schemas/partner-events.js';

// Status delivery to senders (spec 4.13, 6 "signed status fanout"): where a sender's events go, its
// events and their replay, and the booking-status hook on which partner fleets report on jobs
// given to their drivers. Senders authenticate as for intake (API key or x-partner/x-operator
// signature, which covers the exact bytes, so bodies are read as bytes); the hook takes signatures
// only. None of these routes takes the body-only v1 signature: a GET, a DELETE, a rotation or a
// replay has an empty body, so only v2, which covers the method and the target, says what was signed.

const senderSecurity: Record<string, string[]>[] = [
  { bearer: [] },
  { apiKeyHeader: [] },
  { partnerSignature: [] },
  { operatorSignature: [] },
];

export async function partnerEventRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  const keys = new ApiKeyStore(s.sql);
  readJsonAsBytes(app);
  // Bodies are documented from their schemas and checked by parseBody once the sender is known.
  const documentedOnly = () => (data: unknown) => ({ value: data });

  // The sender, authenticated before anything else about the request is looked at.
  const senders = new WeakMap<FastifyRequest, Partner>();
  const authenticate = (opts: { signedOnly: boolean }) => async (request: FastifyRequest) => {
    if (opts.signedOnly && typeof request.headers['x-signature'] !== 'string') {
      throw new ProblemError(401, 'invalid_credentials', 'Missing or invalid credentials.', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    const partner = await authenticateSender(s, request, rawBody(request), {
      kinds: ['partner', 'operator', 'supplier'],
      idHeaders: ['x-partner', 'x-operator'],
      keys,
    });
    senders.set(request, partner);
  };
  const sender = (request: FastifyRequest): Partner => {
    const partner = senders.get(request);
    if (!partner) throw new Error('route without sender authentication');
    return partner;
  };
  const asSender = authenticate({ signedOnly: false });
  const limited = { rateLimit: app.rateLimits.partner };
  const tags = ['partner events'];
  // What every sender route's schema and options share.
  const senderSchema = { tags, security: senderSecurity };
  const asSenderLimited = { config: limited, preValidation: asSender };

  r.get('/api/public/v1/partner/webhook', {
    schema: {
      operationId: 'getPartnerWebhook',
      ...senderSchema,
      summary: 'Where your booking status events are delivered',
      response: { 200: WebhookRegistrationSchema, ...problemResponses(400, 401, 429) },
    },
    ...asSenderLimited,
    handler: async (request) => webhookRegistration(s, sender(request)),
  });

  r.put('/api/public/v1/partner/webhook', {
    schema: {
      operationId: 'registerPartnerWebhook',
      ...senderSchema,
      summary: 'Register or change your callback URL; the first registration returns the signing secret, once',
      description:
        'Every status change of your bookings is POSTed to this URL, signed as Standard Webhooks sign (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"> under the whsec_ secret): verify with any Standard Webhooks library. In order per booking, retried with backoff for 72 hours. The URL must be https and resolve only to public addresses.',
      body: WebhookRegistrationRequest,
      response: { 200: WebhookRegistrationSchema, ...problemResponses(400, 401, 413, 415, 429) },
    },
    validatorCompiler: documentedOnly,
    ...asSenderLimited,
    handler: async (request) =>
      registerCallback(s, sender(request), parseBody(WebhookRegistrationRequest, rawBody(request)).url),
  });

  r.delete('/api/public/v1/partner/webhook', {
    schema: {
      operationId: 'deletePartnerWebhook',
      ...senderSchema,
      summary: 'Stop deliveries (events are still recorded and listed)',
      response: { 200: WebhookRegistrationSchema, ...problemResponses(400, 401, 429) },
    },
    ...asSenderLimited,
    handler: async (request) => unregisterCallback(s, sender(request)),
  });

  r.post('/api/public/v1/partner/webhook/secret', {
    schema: {
      operationId: 'rotatePartnerWebhookSecret',
      ...senderSchema,
      summary: 'Issue a new signing secret (returned once); the previous one keeps signing for 24 hours',
      description:
        'While both are in use each delivery carries two signatures (space separated), so a receiver holding either verifies it. Credentials as on every sender route: your API key, or x-partner/x-operator with a v2 x-signature, which covers the method and the target (POST /api/public/v1/partner/webhook/secret) with the (empty) body; a body-only v1 signature, or one made for another request, is refused.',
      response: { 200: WebhookRegistrationSchema, ...problemResponses(400, 401, 429) },
    },
    ...asSenderLimited,
    handler: async (request) => rotateWebhookSecret(s, sender(request)),
  });

  r.get('/api/public/v1/partner/events', {
    schema: {
      operationId: 'listPartnerEvents',
      ...senderSchema,
      summary: 'Your bookings’ status events of the last 30 days, oldest first, with how their delivery is going',
      querystring: PartnerEventListQuery,
      response: { 200: PartnerEventListSchema, ...problemResponses(400, 401, 429) },
    },
    ...asSenderLimited,
    handler: async (request) => listEvents(s, sender(request), request.query),
  });

  r.post('/api/public/v1/partner/events/:id/replay', {
    schema: {
      operationId: 'replayPartnerEvent',
      ...senderSchema,
      summary: 'Deliver one of your events again, with the same webhook-id and body',
      params: PartnerEventParams,
      response: { 202: ReplayReplySchema, ...problemResponses(400, 401, 404, 409, 429) },
    },
    ...asSenderLimited,
    handler: async (request, reply) => reply.code(202).send(await replayEvent(s, sender(request), request.params.id)),
  });

  r.post('/api/public/hooks/booking-status', {
    schema: {
      operationId: 'bookingStatusHook',
      tags: ['suppliers'],
      summary:
        'A partner fleet reports on a job given to one of its drivers: accepted, on the way, arrived, on board, completed, cancelled',
      description:
        'Signed only: `x-partner: <partner id>` (or x-operator) with `x-signature: t=<unix seconds>,v2=<hex HMAC-SHA256(signing secret, "<t>\\n<METHOD>\\n<path and query as sent>\\n" + raw body bytes)>`; five minutes tolerance, each signed request accepted once. The booking must be offered to or held by a driver of your fleet (else 404). accepted takes the job for the driver it is offered to; cancelled gives it back (it is offered to another driver), except with the passenger on board (409 trip_in_progress); the trip steps move forward only (409 otherwise); a job of a suspended driver takes no status (403 driver_suspended); completed straight from arrived implies the passenger was on board. An exchange fleet (a partner running this same API, to which we handed the job: docs/exchange.md) instead POSTs its own status fan-out here, a booking.status_changed event signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature) with the whsec_ secret it issued us; data.jobRef names our booking, each webhook-id and sequence is taken once, and other event types are acknowledged (200, ignored).',
      security: [{ partnerSignature: [] }, { operatorSignature: [] }, { standardWebhooks: [] }],
      body: BookingStatusHookRequest,
      response: {
        200: z.union([BookingStatusHookReply, ExchangeEventReply]),
        ...problemResponses(400, 401, 403, 404, 409, 410, 413, 415, 429, 503),
      },
    },
    validatorCompiler: documentedOnly,
    config: limited,
    // An exchange fleet's status fan-out (webhook-signature, docs/exchange.md) is verified by its own
    // secret; everything else is a partner fleet's signed report.
    preValidation: async (request) => {
      if (!isStandardWebhook(request.headers)) await authenticate({ signedOnly: true })(request);
    },
    handler: async (request) =>
      isStandardWebhook(request.headers)
        ? receiveExchangeEvent(s, request.headers, rawBody(request))
        : applyFleetStatus(s, sender(request), parseBody(BookingStatusHookRequest, rawBody(request))),
  });
}

/** The body, parsed and checked: 400 naming each bad field. */
function parseBody<T extends z.ZodType>(schema: T, raw: Buffer): z.infer<T> {
  const data = parseJsonBytes(raw);
  const result = schema.safeParse(data);
  if (!result.success) {
    const errors = result.error.issues.map((i) => ({
      field: ['body', ...i.path.map(String)].join('.'),
      message: i.message,
    }));
    throw new ProblemError(400, 'validation_failed', 'The request has invalid fields.', { errors });
  }
  return result.data;
}
