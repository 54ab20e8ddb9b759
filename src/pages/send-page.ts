import type { FastifyReply } from 'fastify';
import type { Page } from './layout.js';

/** A rendered page with the headers every page carries. */
export function sendPage(reply: FastifyReply, page: Page): FastifyReply {
  return reply
    .code(page.status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': page.csp,
      // Every page shows live state.
      'cache-control': 'no-store',
      // Links may carry a token; it must not travel on in a Referer.
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    })
    .send(page.html);
}
