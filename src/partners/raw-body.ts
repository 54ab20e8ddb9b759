import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '../http/problem.js';

// Signed routes take JSON as the bytes sent: a signature covers those bytes exactly
// (signature.ts), so nothing decodes and re-encodes them before it is checked.

/** Makes the routes of this plugin read application/json bodies as bytes. */
export function readJsonAsBytes(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

const EMPTY = Buffer.alloc(0);

/** The body as sent: empty when there was none (a GET, a POST without a body). */
export const rawBody = (request: FastifyRequest): Buffer => (Buffer.isBuffer(request.body) ? request.body : EMPTY);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as JSON, once its sender is known: 400 when it is not UTF-8 (RFC 8259 8.1) or not JSON. */
export function parseJsonBytes(raw: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new ProblemError(400, 'invalid_json', 'The body is not valid UTF-8 JSON.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProblemError(400, 'invalid_json', 'The body is not valid JSON.');
  }
}
