// The booking's one inbox: every update and signal handler posts a typed message here, and the
// process waits only through Inbox.waitFor, which always wakes for a message that interrupts,
// whatever step it is in. A new kind of message is declared as one that interrupts or one that does not.
import { condition } from '@temporalio/workflow';
import type * as M from './definitions.js';
import type { SettleInput, TripProgress } from '../../src/model/bookings.js';

/** The kinds of message that stop any wait, so the main loop deals with them first, and what each carries. */
interface Interrupting {
  cancel: { cancel: M.CancelInput };
  /** `number`: the amendment's place among those received (the text telling a driver names it). */
  amend: { amend: M.AmendInput; number: number };
  drop: { drop: M.DriverDroppedInput };
  opsPick: { pick: M.OpsOfferInput };
  boardClaim: { claim: M.ClaimUpcomingInput };
}
// (A kind added above and not here is a compile error.)
const INTERRUPTING: Record<keyof Interrupting, 1> = { cancel: 1, amend: 1, drop: 1, opsPick: 1, boardClaim: 1 };

/** The others: waited for where the process expects them. */
interface Quiet {
  fleetPick: { pick: M.FleetAssignInput };
  emailConfirmed: object;
  /** A driver's answer to their card: recorded on the card at once; the order they came in decides a group. */
  answer: { offerId: string };
  seen: { offerId: string; driverId: string };
  /** Folded into the state at once (validators read it); posted so an offer out to them is withdrawn. */
  suspended: { driverId: string };
  confirmed: { driverId: string };
  progress: { progress: TripProgress };
  settle: { settlement: SettleInput };
  /** An exchange fleet's event, folded into the state at once (only newer ones). */
  exchange: object;
}

type Carries = Interrupting & Quiet;
export type Message = { [K in keyof Carries]: { kind: K } & Carries[K] }[keyof Carries];
export type Kind = Message['kind'];
export type Envelope<K extends Kind = Kind> = { id: number; msg: Extract<Message, { kind: K }> };

export class Inbox {
  private waiting: { id: number; msg: Message }[] = [];
  private readonly counts = new Map<Kind, number>();
  private readonly replies = new Map<number, unknown>();
  private posted = 0;

  /** `alsoInterrupted`: what in the state interrupts too (a holder suspended, say). */
  constructor(private readonly alsoInterrupted: () => boolean) {}

  post(msg: Message): number {
    const id = ++this.posted;
    this.waiting.push({ id, msg });
    this.counts.set(msg.kind, this.count(msg.kind) + 1);
    return id;
  }

  /** How many messages of a kind ever arrived. */
  count(kind: Kind): number {
    return this.counts.get(kind) ?? 0;
  }

  waitingOf<K extends Kind>(kind: K): Envelope<K>[] {
    return this.waiting.filter((e): e is Envelope<K> => e.msg.kind === kind);
  }

  peek<K extends Kind>(kind: K): Envelope<K> | undefined {
    return this.waitingOf(kind)[0];
  }

  take<K extends Kind>(kind: K): Envelope<K> | undefined {
    const e = this.peek(kind);
    this.waiting = this.waiting.filter((w) => w !== e);
    return e;
  }

  takeAll<K extends Kind>(kind: K): Envelope<K>[] {
    const all = this.waitingOf(kind);
    this.waiting = this.waiting.filter((w) => w.msg.kind !== kind);
    return all;
  }

  interrupted(): boolean {
    return this.waiting.some((e) => e.msg.kind in INTERRUPTING) || this.alsoInterrupted();
  }

  /** The process's one wait: until a message of `kinds` waits, anything interrupts, or `ms` pass (if given). */
  async waitFor(kinds: Kind[], ms?: number): Promise<'message' | 'timeout'> {
    const woken = () => this.interrupted() || this.waiting.some((e) => kinds.includes(e.msg.kind));
    if (ms === undefined) {
      await condition(woken);
      return 'message';
    }
    return (await condition(woken, ms)) ? 'message' : 'timeout';
  }

  /** The process's answer to a message whose update waits for it (replied). */
  reply(id: number, answer: unknown = true): void {
    this.replies.set(id, answer);
  }

  /** For handlers: waits for the process's answer to message `id`, or until `gaveUp`. */
  async replied<T = unknown>(id: number, gaveUp: () => boolean): Promise<T | undefined> {
    await condition(() => this.replies.has(id) || gaveUp());
    return this.replies.get(id) as T | undefined;
  }
}
