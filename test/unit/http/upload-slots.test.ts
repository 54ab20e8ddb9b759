// The upload slots' rules without a server (src/http/upload-slots.ts): who gets a slot, who waits
// and for how long, and when a body in a slot is cut off. Through a real listening server:
// test/integration/driver-applications.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BodyWatch, SlotPool } from '../../../src/http/upload-slots.js';

describe('SlotPool', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds at most the total, one per address, and says which was full', async () => {
    const pool = new SlotPool({ total: 2, perAddress: 1, maxWaiting: 8 });
    const a = await pool.take('a', 0);
    expect(typeof a).toBe('function');
    expect(await pool.take('a', 0)).toBe('address');
    expect(typeof (await pool.take('b', 0))).toBe('function');
    expect(await pool.take('c', 0)).toBe('process');
    expect(pool.held).toBe(2);
    (a as () => void)();
    (a as () => void)(); // released once, however often called
    expect(pool.held).toBe(1);
    expect(typeof (await pool.take('c', 0))).toBe('function');
  });

  it('gives a freed slot to the first waiter whose address may take it, and refuses one that waited too long', async () => {
    const pool = new SlotPool({ total: 2, perAddress: 1, maxWaiting: 8 });
    const a = (await pool.take('a', 0)) as () => void;
    const b = (await pool.take('b', 0)) as () => void;
    const aAgain = pool.take('a', 10_000);
    const c = pool.take('c', 10_000);
    const late = pool.take('d', 1_000);
    expect(pool.waiting).toBe(3);
    b();
    // a still holds its own: the slot goes to c, who came after a's second upload.
    expect(typeof (await c)).toBe('function');
    vi.advanceTimersByTime(1_000);
    expect(await late).toBe('process');
    a();
    expect(typeof (await aAgain)).toBe('function');
    expect(pool.waiting).toBe(0);
  });

  it('lets one address wait once, bounds the queue, and forgets a waiter who went away', async () => {
    const pool = new SlotPool({ total: 1, perAddress: 1, maxWaiting: 2 });
    const a = (await pool.take('a', 0)) as () => void;
    const b1 = pool.take('b', 10_000);
    expect(await pool.take('b', 10_000)).toBe('process'); // b waits already
    const gone = new AbortController();
    const c = pool.take('c', 10_000, gone.signal);
    expect(await pool.take('d', 10_000)).toBe('process'); // the queue is full
    gone.abort();
    expect(await c).toBe('process');
    expect(pool.waiting).toBe(1);
    a();
    expect(typeof (await b1)).toBe('function');
  });
});

describe('BodyWatch', () => {
  let clock = 0;
  const now = () => clock;
  const options = { idleTimeoutMs: 5_000, minBytesPerSecond: 1_000, bodyTimeoutMs: 60_000, now };
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function watched() {
    const stalls: string[] = [];
    const watch = new BodyWatch(options, (why) => stalls.push(why));
    const out: Buffer[] = [];
    watch.on('data', (c: Buffer) => out.push(c));
    return { watch, stalls, out };
  }

  it('holds the first bytes back until started, then passes every byte on', async () => {
    const { watch, out } = watched();
    watch.write(Buffer.from('{"a"'));
    expect(await watch.firstBytes).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(out).toEqual([]);
    watch.start();
    watch.end(Buffer.from(':1}'));
    await vi.advanceTimersByTimeAsync(0);
    expect(Buffer.concat(out).toString()).toBe('{"a":1}');
  });

  it('says when no byte came in time, or the body ended with none', async () => {
    const idle = watched();
    vi.advanceTimersByTime(5_000);
    expect(await idle.watch.firstBytes).toBe('idle');
    expect(idle.stalls).toEqual([]); // before its slot, the caller answers
    const empty = watched();
    empty.watch.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(await empty.watch.firstBytes).toBe(false);
  });

  it('cuts off a body that falls silent in its slot', async () => {
    const { watch, stalls } = watched();
    watch.write(Buffer.alloc(10));
    watch.start();
    vi.advanceTimersByTime(4_999);
    watch.write(Buffer.alloc(10_000)); // a byte resets the silence
    await vi.advanceTimersByTimeAsync(4_999);
    expect(stalls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(stalls).toEqual(['idle']);
  });

  it('cuts off a trickle: bytes that never pause but come slower than the minimum', async () => {
    const { watch, stalls } = watched();
    watch.write(Buffer.alloc(1));
    watch.start();
    // One byte a second: never silent for five seconds, far below 1,000 bytes a second.
    for (let s = 1; s <= 6 && stalls.length === 0; s++) {
      clock = s * 1_000;
      await vi.advanceTimersByTimeAsync(1_000);
      watch.write(Buffer.alloc(1));
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(stalls).toEqual(['slow']);
    expect(clock).toBe(5_000);
  });

  it('takes a body at the minimum pace, and cuts off one that is not in by the deadline', async () => {
    const { watch, stalls } = watched();
    watch.write(Buffer.alloc(1_000));
    watch.start();
    for (let s = 1; s <= 59; s++) {
      clock = s * 1_000;
      await vi.advanceTimersByTimeAsync(1_000);
      watch.write(Buffer.alloc(1_000));
    }
    expect(stalls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stalls).toEqual(['deadline']);
  });
});
