import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Cuts Twilio's published OpenAPI document for API v2010 (twilio/twilio-oai,
// spec/json/twilio_api_v2010.json, about 1.9 MB) down to the Messages create and fetch operations
// and what they reference, and adds what Prism needs that the document lacks (above all the error
// responses Twilio documents only in prose), so dev/providers/twilio.ts can run Prism on
// it without the whole document or the network.
// Usage: npx tsx scripts/excerpt-twilio-openapi.ts <twilio_api_v2010.json> [out.json]
// Default out: dev/providers/twilio/twilio_api_v2010.messages.json. README.md beside it
// says which commit it was made from and lists every addition; each is marked `x-added-by`.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const usage = 'Usage: npx tsx scripts/excerpt-twilio-openapi.ts <twilio_api_v2010.json> [out.json]';
const [source, outArg] = process.argv.slice(2);
if (source === '--help' || source === '-h') {
  console.log(usage);
  process.exit(0);
}
if (!source) {
  console.error(usage);
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..');
const out = outArg ?? path.join(root, 'dev/providers/twilio/twilio_api_v2010.messages.json');

const full = JSON.parse(readFileSync(source, 'utf8')) as Obj;
const LIST = '/2010-04-01/Accounts/{AccountSid}/Messages.json';
const ONE = '/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json';
// Sending (POST on the list), which the adapter does; fetching one (GET), the same schema, kept for
// reading a message's status back.
const KEEP: Record<string, string[]> = { [LIST]: ['post'], [ONE]: ['get'] };
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function obj(value: Json | undefined, what: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what}: not an object`);
  return value;
}
const clone = <T extends Json>(value: T): T => structuredClone(value);

const fullPaths = obj(full.paths, 'paths');
const paths: Obj = {};
for (const [p, methods] of Object.entries(KEEP)) {
  const item = obj(fullPaths[p], p);
  // Path-level keys (servers, description, x-twilio) stay; the other operations go.
  paths[p] = clone(
    Object.fromEntries(Object.entries(item).filter(([key]) => !METHODS.has(key) || methods.includes(key))),
  );
}

// Every component schema the kept operations reference, followed transitively.
const fullSchemas = obj(obj(full.components, 'components').schemas, 'components.schemas');
const schemas: Obj = {};
function collectRefs(value: Json): void {
  if (Array.isArray(value)) return value.forEach(collectRefs);
  if (typeof value !== 'object' || value === null) return;
  const ref = value.$ref;
  if (typeof ref === 'string') {
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
    if (!name) throw new Error(`unexpected reference ${ref}`);
    if (!(name in schemas)) {
      schemas[name] = clone(obj(fullSchemas[name], ref));
      collectRefs(schemas[name]);
    }
  }
  Object.values(value).forEach(collectRefs);
}
collectRefs(paths);

// --- Our additions. Twilio's document lists only the success response of each operation; the
// errors below are in Twilio's documented error shape (https://www.twilio.com/docs/usage/twilios-response)
// with the codes and wording of its error pages (https://www.twilio.com/docs/errors/<code>) and of
// its test credentials' magic numbers (https://www.twilio.com/docs/iam/test-credentials).
const ADDED = "direct-taxi: not in Twilio's document (dev/providers/twilio/README.md)";
schemas['direct_taxi.twilio_error'] = {
  'x-added-by': ADDED,
  type: 'object',
  description: "Twilio's REST error body (https://www.twilio.com/docs/usage/twilios-response).",
  required: ['code', 'message', 'more_info', 'status'],
  properties: {
    code: { type: 'integer', description: 'Twilio error code; https://www.twilio.com/docs/errors/<code>' },
    message: { type: 'string' },
    more_info: { type: 'string', format: 'uri' },
    status: { type: 'integer', description: 'The HTTP status, repeated' },
  },
};

function twilioError(status: number, code: number, message: string): Obj {
  return { value: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}
function errorResponse(description: string, examples: Obj): Obj {
  return {
    'x-added-by': ADDED,
    description,
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/direct_taxi.twilio_error' }, examples },
    },
  };
}

const create = obj(obj(paths[LIST], LIST).post, 'create');
Object.assign(obj(create.responses, 'create responses'), {
  '400': errorResponse('The message was refused (Twilio error codes 21xxx).', {
    // The test credentials' magic To numbers, +1500555000N, in numeric order.
    invalidTo: twilioError(400, 21211, "The 'To' number +15005550001 is not a valid phone number."),
    cannotRoute: twilioError(
      400,
      21612,
      "The 'To' phone number: +15005550002, is not currently reachable using the 'From' phone number via SMS.",
    ),
    noRegionPermission: twilioError(
      400,
      21408,
      "Permission to send an SMS has not been enabled for the region indicated by the 'To' number: +15005550003.",
    ),
    unsubscribed: twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'),
    notMobile: twilioError(400, 21614, "'To' number is not a valid mobile number"),
    // Not a magic number: Twilio's own transient 400 (too many messages queued on the From number).
    queueFull: twilioError(400, 21611, "This 'From' number has exceeded the maximum number of queued messages"),
  }),
  '401': errorResponse('The credentials were missing or wrong.', {
    authenticate: twilioError(401, 20003, 'Authenticate'),
  }),
  '429': errorResponse('Too many requests for this account.', {
    tooManyRequests: twilioError(429, 20429, 'Too Many Requests'),
  }),
});
// Not a Twilio response. Prism answers a request that breaks the document with the operation's 422,
// else its 400: without this it would answer with the first of Twilio's 400 examples above, and a
// request Prism refused would look like Twilio refusing a number. Its sl-violations header says why.
const refused: Obj = {
  'x-added-by': ADDED,
  description: 'Not a Twilio response: what Prism answers a request that breaks this document.',
  content: {
    'application/problem+json': {
      schema: { type: 'object' },
      examples: {
        refusedByPrism: {
          value: {
            type: 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY',
            title: "Refused by Prism: the request breaks Twilio's OpenAPI document",
            status: 422,
            detail: 'The sl-violations response header lists what the request got wrong.',
          },
        },
      },
    },
  },
};
obj(create.responses, 'create responses')['422'] = refused;
const fetchOne = obj(obj(paths[ONE], ONE).get, 'fetch');
obj(fetchOne.responses, 'fetch responses')['422'] = clone(refused);

// Twilio's document states which parameters are needed together only in its own extension
// (x-twilio.conditional: From or MessagingServiceSid; Body, MediaUrl or ContentSid), which Prism
// does not read; the same rule as JSON Schema, so a request missing both of a pair is refused.
const createBody = obj(
  obj(obj(obj(create.requestBody, 'requestBody').content, 'content')['application/x-www-form-urlencoded'], 'form')
    .schema,
  'form schema',
);
const conditional = obj(create['x-twilio'], 'x-twilio').conditional;
if (!Array.isArray(conditional)) throw new Error('x-twilio.conditional: not a list');
const properties = Object.keys(obj(createBody.properties, 'form properties'));
createBody.allOf = conditional.map((group) => {
  if (!Array.isArray(group)) throw new Error('x-twilio.conditional: not a list of lists');
  return {
    'x-added-by': ADDED,
    anyOf: group.map((snake) => {
      if (typeof snake !== 'string') throw new Error('x-twilio.conditional: not a list of names');
      // The extension names parameters in snake_case (messaging_service_sid); the form in PascalCase.
      const name = properties.find((p) => p.toLowerCase() === snake.replace(/_/g, ''));
      if (!name) throw new Error(`x-twilio.conditional names ${snake}, which the form does not have`);
      return { required: [name] };
    }),
  };
});

const excerpt: Obj = {
  openapi: clone(full.openapi ?? null),
  info: {
    ...obj(clone(full.info ?? null), 'info'),
    'x-excerpt': {
      'x-added-by': ADDED,
      source: 'https://github.com/twilio/twilio-oai/blob/main/spec/json/twilio_api_v2010.json',
      operations: ['CreateMessage', 'FetchMessage'],
      'made-by': 'scripts/excerpt-twilio-openapi.ts',
    },
  },
  servers: clone(full.servers ?? null),
  security: clone(full.security ?? null),
  paths,
  components: {
    securitySchemes: clone(obj(full.components, 'components').securitySchemes ?? null),
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
  },
};
writeFileSync(out, `${JSON.stringify(excerpt, null, 2)}\n`);
console.log(`${out}: ${Object.keys(schemas).length} schemas, ${JSON.stringify(excerpt).length} bytes`);
