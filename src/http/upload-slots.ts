import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { ProblemError } from './problem.js';

// A route whose bodies are megabytes holds them in memory while it reads, parses and stores them:
// the number of such requests at once, not their rate, is what sets the process's memory. So each
// one holds a slot while its body is read and handled, and gives it back when its response ends or
// its connection closes, whichever comes first (docs/security/onboarding.md, "Upload slots").
//
// A slot is only for a body that is arriving. Declaring one is free (a Content-Length of 16 MB
// and then nothing held both slots of the process for two minutes, issue 33), so:
//   - a declared Content-Length over the route's limit is 413 before anything else (onRequest);
//   - the slot is taken when the body's first bytes arrive, not when its headers do (preParsing):
//     a connection that declares a body and sends none holds no slot, and is cut off (408) after
//     `idleTimeoutMs` without a byte;
//   - once in a slot, the body must keep coming: no gap of `idleTimeoutMs` between bytes, at least
//     `minBytesPerSecond` on average after the first `idleTimeoutMs`, and all of it within
//     `bodyTimeoutMs`; else 408, the connection closed and the slot given back at once;
//   - one address (the caller's rate key: API key, else IP with IPv6 by /64) holds at most
//     `perAddress` slots;
//   - a body that arrives while the slots are full waits up to `waitMs` for one (first come, first
//     served; at most `maxWaiting` wait, each holding only what its socket has buffered), and only
//     then is refused 503 with Retry-After.

export interface UploadSlotOptions {
  /** Uploads at once in this process. */
  total: number;
  /** Uploads at once, and waiting, from one address (the caller's rate key: API key, else client IP, IPv6 by /64). */
  perAddress: number;
  /** A body not in by then (from its slot) is cut off, however steadily it comes. */
  bodyTimeoutMs: number;
  /** The longest silence: before the first byte, and between bytes once in a slot. */
  idleTimeoutMs: number;
  /** The slowest a body may arrive, on average from its slot, once `idleTimeoutMs` has passed. */
  minBytesPerSecond: number;
  /** How long a body whose bytes have come may wait for a slot before the 503. */
  waitMs: number;
  /** Bodies waiting for a slot at once; beyond, 503 at once. */
  maxWaiting: number;
  retryAfterSeconds: number;
  /** The clock the throughput is measured by (tests). */
  now?: () => number;
}

export interface UploadSlots {
  /** onRequest: a declared body over the route's limit is 413 before any slot or allowance is spent. */
  declared: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
  /** preParsing: waits for the body's first bytes, then for a slot; the body read on is watched for pace. */
  admit: (request: FastifyRequest, reply: FastifyReply, payload: Readable) => Promise<Readable | FastifyReply>;
  inFlight: () => number;
  waiting: () => number;
}

export type SlotRefusal = 'address' | 'process';

/**
 * The slots themselves: at most `total` held, `perAddress` per address, and a first-come queue of
 * at most `maxWaiting` (and `perAddress` per address) for the next free one.
 */
export class SlotPool {
  #held = 0;
  readonly #byAddress = new Map<string, number>();
  readonly #queue: Array<{ address: string; grant: () => void }> = [];
  readonly #waitingByAddress = new Map<string, number>();

  constructor(private readonly o: { total: number; perAddress: number; maxWaiting: number }) {}

  get held(): number {
    return this.#held;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * A slot for this address: at once if one is free, else after a wait of at most `waitMs`, else
   * the reason there is none. `signal` abandons the wait (the client went away). The slot is
   * released by calling what is returned, once.
   */
  async take(address: string, waitMs: number, signal?: AbortSignal): Promise<(() => void) | SlotRefusal> {
    if (this.#free(address)) return this.#grant(address);
    const refusal = (): SlotRefusal =>
      (this.#byAddress.get(address) ?? 0) >= this.o.perAddress ? 'address' : 'process';
    if (
      waitMs <= 0 ||
      this.#queue.length >= this.o.maxWaiting ||
      (this.#waitingByAddress.get(address) ?? 0) >= this.o.perAddress ||
      signal?.aborted
    ) {
      return refusal();
    }
    return new Promise((resolve) => {
      const entry = {
        address,
        grant: () => {
          done();
          resolve(this.#grant(address));
        },
      };
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        const at = this.#queue.indexOf(entry);
        if (at >= 0) this.#queue.splice(at, 1);
        count(this.#waitingByAddress, address, -1);
      };
      const giveUp = () => {
        done();
        resolve(refusal());
      };
      const timer = setTimeout(giveUp, waitMs);
      timer.unref();
      signal?.addEventListener('abort', giveUp, { once: true });
      this.#queue.push(entry);
      count(this.#waitingByAddress, address, 1);
    });
  }

  #free(address: string): boolean {
    return this.#held < this.o.total && (this.#byAddress.get(address) ?? 0) < this.o.perAddress;
  }

  #grant(address: string): () => void {
    this.#held++;
    count(this.#byAddress, address, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held--;
      count(this.#byAddress, address, -1);
      // The first in the queue whose address may hold one more, as long as slots are free.
      for (let i = 0; i < this.#queue.length && this.#held < this.o.total;) {
        const next = this.#queue[i]!;
        if (this.#free(next.address)) next.grant();
        else i++;
      }
    };
  }
}

function count(m: Map<string, number>, key: string, by: number): void {
  const n = (m.get(key) ?? 0) + by;
  if (n > 0) m.set(key, n);
  else m.delete(key);
}

type Stall = 'idle' | 'slow' | 'deadline';

/**
 * The body on its way to the parser. It holds back the first chunk until `start` (the slot is
 * taken), so the socket is read no further meanwhile, then passes every chunk on, cutting the body
 * off with `onStall` when it falls silent or behind.
 */
export class BodyWatch extends Transform {
  /** The first bytes came (true), or the body ended with none (false), or nothing came in time ('idle'). */
  readonly firstBytes: Promise<boolean | 'idle'>;
  #settleFirst!: (v: boolean | 'idle') => void;
  #held: { chunk: Buffer; callback: TransformCallback } | null = null;
  #started: number | null = null;
  #bytes = 0;
  #idle: NodeJS.Timeout | undefined;
  #deadline: NodeJS.Timeout | undefined;

  constructor(
    private readonly o: Pick<UploadSlotOptions, 'idleTimeoutMs' | 'minBytesPerSecond' | 'bodyTimeoutMs'> & {
      now: () => number;
    },
    private readonly onStall: (why: Stall) => void,
  ) {
    super();
    this.firstBytes = new Promise((resolve) => {
      this.#settleFirst = resolve;
    });
    this.#armIdle();
  }

  /** In a slot: the body may come on, at its pace. */
  start(): void {
    if (this.#started !== null || this.destroyed) return;
    this.#started = this.o.now();
    this.#armIdle();
    this.#deadline = setTimeout(() => this.#stall('deadline'), this.o.bodyTimeoutMs);
    this.#deadline.unref();
    const held = this.#held;
    this.#held = null;
    if (held) this.#pass(held.chunk, held.callback);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#started === null) {
      this.#held = { chunk, callback };
      clearTimeout(this.#idle);
      this.#settleFirst(true);
      return;
    }
    this.#pass(chunk, callback);
  }

  override _flush(callback: TransformCallback): void {
    this.#clear();
    this.#settleFirst(false);
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.#clear();
    this.#settleFirst(false);
    callback(err);
  }

  #pass(chunk: Buffer, callback: TransformCallback): void {
    this.#bytes += chunk.length;
    const elapsed = this.o.now() - (this.#started ?? 0);
    if (elapsed >= this.o.idleTimeoutMs && this.#bytes < (this.o.minBytesPerSecond * elapsed) / 1000) {
      callback();
      this.#stall('slow');
      return;
    }
    this.#armIdle();
    callback(null, chunk);
  }

  #armIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(
      () => (this.#started === null ? this.#settleFirst('idle') : this.#stall('idle')),
      this.o.idleTimeoutMs,
    );
    this.#idle.unref();
  }

  #stall(why: Stall): void {
    this.#clear();
    this.onStall(why);
  }

  #clear(): void {
    clearTimeout(this.#idle);
    clearTimeout(this.#deadline);
  }
}

const STALLED: Record<Stall | 'first', string> = {
  first: 'No body arrived',
  idle: 'The body stopped arriving',
  slow: 'The body arrived too slowly',
  deadline: 'The body did not arrive in time',
};

const pathOf = (request: FastifyRequest) => (request.url.split('?')[0] ?? '').slice(0, 200);

export function uploadSlots(o: UploadSlotOptions): UploadSlots {
  const pool = new SlotPool(o);
  const now = o.now ?? Date.now;
  const slowProblem = (why: Stall | 'first') =>
    new ProblemError(
      408,
      'upload_too_slow',
      `${STALLED[why]}: an upload must keep coming (no pause of ${Math.ceil(o.idleTimeoutMs / 1000)} s, at least ${Math.floor(o.minBytesPerSecond / 1024)} KB/s, all of it within ${Math.round(o.bodyTimeoutMs / 1000)} s). Try again on a better connection.`,
      { headers: { connection: 'close' } },
    );
  // Answered here, not thrown: back-pressure working, not a failure, and the error handler would
  // log every refusal of a flood as an error with its stack.
  const answer = (request: FastifyRequest, reply: FastifyReply, problem: ProblemError) => {
    request.log.info({ code: problem.code, inFlight: pool.held, waiting: pool.waiting }, 'upload refused');
    for (const [k, v] of Object.entries(problem.extra.headers ?? {})) void reply.header(k, v);
    return reply
      .code(problem.status)
      .type('application/problem+json')
      .send(problem.toProblem(request.id, pathOf(request)));
  };

  return {
    inFlight: () => pool.held,
    waiting: () => pool.waiting,
    declared: async (request, reply) => {
      const declared = Number(request.headers['content-length']);
      const limit = request.routeOptions.bodyLimit;
      if (limit !== undefined && declared > limit) {
        return answer(
          request,
          reply,
          new ProblemError(
            413,
            'payload_too_large',
            `The request body is larger than this route's limit of ${limit} bytes.`,
            {
              limitBytes: limit,
              headers: { connection: 'close' },
            },
          ),
        );
      }
      return undefined;
    },
    admit: async (request, reply, payload) => {
      let release: (() => void) | null = null;
      const gone = new AbortController();
      const watch = new BodyWatch({ ...o, now }, (why) => {
        release?.();
        request.log.info({ why, inFlight: pool.held }, 'upload cut off');
        payload.unpipe(watch);
        watch.destroy(slowProblem(why));
      });
      // Until the parser listens, an error must not be unhandled; the parser sees it as well.
      watch.on('error', () => {});
      // The client gone (or the response done): the slot is given back, the body read no further.
      reply.raw.once('close', () => {
        gone.abort();
        release?.();
        if (!watch.readableEnded) watch.destroy(new Error('the connection closed before the body arrived'));
      });
      payload.once('error', (err) => watch.destroy(err));
      payload.pipe(watch);

      const first = await watch.firstBytes;
      if (first === 'idle' || gone.signal.aborted) {
        payload.unpipe(watch);
        watch.destroy();
        return answer(request, reply, slowProblem('first'));
      }
      // No body at all: nothing to hold; the parser says what is wrong with it.
      if (first === false) return watch;

      const asked = now();
      const slot = await pool.take(request.caller.rateKey, o.waitMs, gone.signal);
      if (typeof slot !== 'function') {
        payload.unpipe(watch);
        watch.destroy();
        const busy = new ProblemError(
          503,
          'uploads_busy',
          `Too many uploads at once${slot === 'address' ? ' from this address' : ''}; retry in ${o.retryAfterSeconds} s.`,
          {
            headers: { 'retry-after': String(o.retryAfterSeconds), connection: 'close' },
          },
        );
        return answer(request, reply, busy);
      }
      if (gone.signal.aborted) {
        slot();
        return answer(request, reply, slowProblem('first'));
      }
      release = slot;
      request.log.debug({ waitedMs: now() - asked, inFlight: pool.held }, 'upload slot taken');
      watch.start();
      return watch;
    },
  };
}

/** The slots of the application routes (a driver's application, a licence renewal), from the configuration. */
export function applicationUploadSlots(
  config: Pick<
    Config,
    | 'APPLICATION_UPLOADS_IN_FLIGHT'
    | 'APPLICATION_UPLOAD_TIMEOUT_SECONDS'
    | 'APPLICATION_UPLOAD_IDLE_SECONDS'
    | 'APPLICATION_UPLOAD_MIN_BYTES_PER_SECOND'
    | 'APPLICATION_UPLOAD_WAIT_SECONDS'
  >,
): UploadSlots {
  return uploadSlots({
    total: config.APPLICATION_UPLOADS_IN_FLIGHT,
    perAddress: 1,
    bodyTimeoutMs: config.APPLICATION_UPLOAD_TIMEOUT_SECONDS * 1000,
    idleTimeoutMs: config.APPLICATION_UPLOAD_IDLE_SECONDS * 1000,
    minBytesPerSecond: config.APPLICATION_UPLOAD_MIN_BYTES_PER_SECOND,
    waitMs: config.APPLICATION_UPLOAD_WAIT_SECONDS * 1000,
    // Each holds only what its socket has buffered; a few per slot is a queue, not a second pool.
    maxWaiting: config.APPLICATION_UPLOADS_IN_FLIGHT * 4,
    retryAfterSeconds: 5,
  });
}
