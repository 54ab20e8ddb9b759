import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemError } from '../http/problem.js';
import { CONTROL_CHARACTER as CONTROL } from '../schemas/common.js';

const MAX_DEPTH = 8;

function findControl(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return CONTROL.test(value) ? path : null;
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (CONTROL.test(k)) return `${path}.${k.replace(CONTROL, '?')}`;
    const hit = findControl(v, `${path}.${k}`, depth + 1);
    if (hit) return hit;
  }
  return null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route checks every string itself and answers in its own protocol: /mcp, where a bad
     * tool argument must be a tool result with isError (src/mcp/tools.ts screens every string).
     */
    screensOwnInput?: boolean;
  }
}

/**
 * Refuses control characters anywhere in a request's path parameters, query and JSON body with a
 * 400 naming the field, before any route sees them. Route schemas also declare the rule for the
 * fields they know (src/schemas/common.ts); this is the net under every route.
 */
export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.config.screensOwnInput) return;
      const field =
        findControl(request.params, 'params') ??
        findControl(request.query, 'querystring') ??
        findControl(request.body, 'body');
      if (field) {
        throw new ProblemError(400, 'invalid_characters', 'The request contains control characters.', {
          errors: [{ field, message: 'must not contain control characters' }],
        });
      }
    });
  },
  { name: 'input-guard' },
);
