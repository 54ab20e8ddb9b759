import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ProblemError, type FieldError } from '../http/problem.js';
import { databaseProblem } from '../http/database-problems.js';
import { failureProblem } from '../http/refusal-problem.js';
import { fieldErrors, type Issue } from '../http/field-errors.js';

/** Maps Fastify's own error codes to our problem codes, so malformed input never becomes a 500. */
const FASTIFY_ERRORS: Record<string, { status: number; code: string; detail: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', detail: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', detail: 'The request body is empty.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', detail: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    detail: 'Send the request body as application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_request', detail: 'Content-Length is wrong.' },
  FST_ERR_BAD_URL: { status: 400, code: 'invalid_request', detail: 'The URL is not valid.' },
};

/**
 * Any error thrown while handling a request, as the problem the client is told about: a use case's
 * Refusal, a workflow's refusal or Temporal failing (src/http/refusal-problem.ts), the database
 * briefly gone, Fastify's own errors; anything else is a 500.
 */
/** `input`: the request's part that failed validation (its body, querystring...), to tell a field left out. */
export function toProblemError(err: FastifyError, bodyLimit?: number, input?: unknown): ProblemError {
  const refused = failureProblem(err);
  if (refused) return refused;
  const database = databaseProblem(err);
  if (database) return database;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = err.validationContext ?? 'body';
    const errors: FieldError[] = err.validation.flatMap((v) =>
      fieldErrors(
        // The provider moves the issue's code to `keyword` and leaves the rest in `params`.
        { ...(v.params as Partial<Issue> & Record<string, unknown>), code: v.keyword },
        v.instancePath.split('/').filter(Boolean),
        v.message,
        input,
      ).map((e) => ({
        field: [where, ...e.path].join('.'),
        message: e.message,
      })),
    );
    return new ProblemError(400, 'validation_failed', 'The request has invalid fields.', { errors });
  }
  const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
  // A body over the limit is told the limit, so a sender can split it.
  if (known && err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && bodyLimit) {
    return new ProblemError(
      known.status,
      known.code,
      `The request body is larger than this route's limit of ${bodyLimit} bytes.`,
      { limitBytes: bodyLimit },
    );
  }
  if (known) return new ProblemError(known.status, known.code, known.detail);
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new ProblemError(err.statusCode, 'invalid_request', err.message);
  }
  return new ProblemError(
    500,
    'internal_error',
    'Something went wrong on our side. Quote the request_id when reporting it.',
  );
}

function requestPart(request: FastifyRequest, part: string | undefined): unknown {
  return (request as unknown as Record<string, unknown>)[part ?? 'body'];
}

export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    // Every route's path pattern and methods, so a known path asked with another method is a 405
    // naming the methods it takes, not a 404 saying it does not exist.
    const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
    app.addHook('onRoute', (route) => {
      const pattern = new RegExp(
        `^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`,
      );
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
      const known = routes.find((r) => r.pattern.source === pattern.source);
      if (known) methods.forEach((m) => known.methods.add(m));
      else routes.push({ pattern, methods: new Set(methods) });
    });
    /** The methods a path takes, when it is a known path at all. */
    const allowedOn = (path: string) =>
      [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => [...r.methods]))].sort();
    const send = (request: FastifyRequest, reply: FastifyReply, problem: ProblemError, path: string) => {
      for (const [k, v] of Object.entries(problem.extra.headers ?? {})) void reply.header(k, v);
      return reply
        .code(problem.status)
        .type('application/problem+json')
        .send(problem.toProblem(request.id, path.slice(0, 200)));
    };
    const notAllowed = (request: FastifyRequest, path: string, allowed: string[]) =>
      new ProblemError(
        405,
        'method_not_allowed',
        `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}.`,
        {
          headers: { allow: allowed.join(', ') },
        },
      );

    app.setErrorHandler((err: FastifyError, request, reply) => {
      const path = request.url.split('?')[0] ?? request.url;
      // A request no route matched can fail before the not-found handler runs (an unknown method
      // such as QUERY without a body type): on a known path it is still a 405, not a 400.
      const allowed = request.is404 ? allowedOn(path) : [];
      const problem =
        allowed.length > 0
          ? notAllowed(request, path, allowed)
          : toProblemError(err, request.routeOptions.bodyLimit, requestPart(request, err.validationContext));
      if (problem.status >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ code: problem.code, status: problem.status }, 'request rejected');
      return send(request, reply, problem, path);
    });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? request.url;
      const allowed = allowedOn(path);
      const problem =
        allowed.length > 0
          ? notAllowed(request, path, allowed)
          : new ProblemError(404, 'route_not_found', `No route ${request.method} ${path}.`);
      return send(request, reply, problem, path);
    });
  },
  { name: 'error-handler' },
);
