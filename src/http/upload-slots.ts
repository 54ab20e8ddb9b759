import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from './problem.js';

// A route whose bodies are megabytes holds them in memory while it reads, parses and stores them:
// the number of such requests at once, not their rate, is what sets the process's memory. Each one
// takes a slot before its body is read (an onRequest hook) and gives it back when its response ends
// or its connection closes, whichever comes first.

export interface UploadSlotOptions {
  /** Uploads at once in this process. */
  total: number;
  /** Uploads at once from one address (the caller's rate key: API key, else client IP). */
  perAddress: number;
  /** A body not in by then is cut off (the connection closed), so a trickle cannot hold a slot. */
  bodyTimeoutMs: number;
  retryAfterSeconds: number;
}

export interface UploadSlots {
  admit: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
  /** The body has arrived: the deadline no longer applies (a preValidation hook). */
  bodyReceived: (request: FastifyRequest) => Promise<void>;
  inFlight: () => number;
}

const DEADLINE = Symbol('upload deadline');
type WithDeadline = FastifyRequest & { [DEADLINE]?: NodeJS.Timeout };

export function uploadSlots(o: UploadSlotOptions): UploadSlots {
  let inFlight = 0;
  const byAddress = new Map<string, number>();
  return {
    inFlight: () => inFlight,
    admit: async (request, reply) => {
      const address = request.caller.rateKey;
      const mine = byAddress.get(address) ?? 0;
      if (inFlight >= o.total || mine >= o.perAddress) {
        // Answered here, not thrown: this is back-pressure working, not a failure, and the error
        // handler would log every refusal of a flood as an error with its stack.
        const busy = new ProblemError(503, 'uploads_busy', `Too many uploads at once${mine >= o.perAddress ? ' from this address' : ''}; retry in ${o.retryAfterSeconds} s.`);
        request.log.info({ code: busy.code, inFlight }, 'upload refused');
        return reply
          .code(503)
          .header('retry-after', String(o.retryAfterSeconds))
          .header('connection', 'close')
          .type('application/problem+json')
          .send(busy.toProblem(request.id, (request.url.split('?')[0] ?? '').slice(0, 200)));
      }
      inFlight++;
      byAddress.set(address, mine + 1);
      const timer = setTimeout(() => request.raw.destroy(), o.bodyTimeoutMs);
      timer.unref();
      (request as WithDeadline)[DEADLINE] = timer;
      let released = false;
      reply.raw.once('close', () => {
        if (released) return;
        released = true;
        clearTimeout(timer);
        inFlight--;
        const left = (byAddress.get(address) ?? 1) - 1;
        if (left > 0) byAddress.set(address, left);
        else byAddress.delete(address);
      });
    },
    bodyReceived: async (request) => {
      clearTimeout((request as WithDeadline)[DEADLINE]);
    },
  };
}
