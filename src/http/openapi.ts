import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';

type Document = {
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>;
};

/**
 * Error bodies are sent as application/problem+json (src/plugins/error-handler.ts), so the
 * document must declare them so: the schema generator only knows application/json.
 */
function declareProblemMediaType<T>(doc: T): T {
  for (const operations of Object.values((doc as Document).paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const json = response.content?.['application/json'];
        if (Number(status) >= 400 && json && response.content) {
          delete response.content['application/json'];
          response.content['application/problem+json'] = json;
        }
      }
    }
  }
  return doc;
}

/** How partners, operators and suppliers sign requests (src/partners/signature.ts, src/partners/README.md). */
const SIGNATURE_ENCODING =
  't=<unix seconds>,v2=<hex HMAC-SHA256(secret, "<t>\\n<METHOD>\\n<path and query as sent>\\n" + raw body bytes)>: the method, the request target and the body bytes. ' +
  'The job intake POSTs also take spec 5\'s body-only form t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + raw body bytes)> when the body is not empty. ' +
  'Five minutes tolerance; a signed request that changes something (POST, PUT, DELETE; not the idempotent job intake POSTs) is accepted once, whichever and however many of the live secrets signed it (one v2 or v1 per secret, comma separated, during a rotation); a signed GET may be sent again within the tolerance.';

/** The OpenAPI 3.1.0 document, generated from the routes' zod schemas so it cannot drift. */
export function openApiOptions(config: Config): FastifyDynamicSwaggerOptions {
  const servers = [config.PUBLIC_BASE_URL, ...config.PUBLIC_DOMAINS.filter((d) => d !== config.PUBLIC_BASE_URL)];
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Direct Taxi public API',
        version: '1.0.0',
        description:
          'Regulated UK taxi fares, bookings and dispatch, passenger to driver with no commission. Errors are RFC 9457 problem details (application/problem+json) with a stable `code`.',
      },
      servers: servers.map((url) => ({ url })),
      components: {
        securitySchemes: {
          networkTaxiKey: { type: 'apiKey', in: 'header', name: 'X-Network-Taxi-AI-Key' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer' },
          // Partner, operator and supplier intake (spec 5). The signer is named in x-partner or x-operator.
          partnerSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'x-signature',
            description: `With x-partner: ${SIGNATURE_ENCODING}`,
          },
          operatorSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'x-signature',
            description: `With x-operator: ${SIGNATURE_ENCODING}`,
          },
          supplierSecret: { type: 'apiKey', in: 'header', name: 'x-supplier-a-secret' },
          aggregatorSecret: { type: 'apiKey', in: 'header', name: 'x-aggregator-secret' },
          // An exchange fleet's status fan-out to the booking-status hook (docs/exchange.md).
          standardWebhooks: {
            type: 'apiKey',
            in: 'header',
            name: 'webhook-signature',
            description:
              'With webhook-id and webhook-timestamp: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"> under the whsec_ secret the fleet issued us',
          },
        },
      },
      // Keys are optional on the public endpoints (anonymous callers are limited by IP).
      security: [{ networkTaxiKey: [] }, { apiKeyHeader: [] }, { bearer: [] }, {}],
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => declareProblemMediaType(jsonSchemaTransformObject(input)),
  };
}
