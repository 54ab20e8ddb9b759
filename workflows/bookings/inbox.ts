// The booking's one inbox: every update and signal handler posts a typed message here, and the
// process waits only through Inbox.waitFor, which always wakes for a message that interrupts,
// whatever step it is in. A new kind of message is declared as one that interrupts or one that does not.
import { CancellationScope, condition, sleep } from '@temporalio/workflow';
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

interface Timer {
  at: number;
  fired: boolean;
  scope: CancellationScope;
}

export class Inbox {
  private timer: Timer | null = null;
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

  /**
   * The process's one wait: until a message of `kinds` waits, anything interrupts, or `ms` pass (if
   * given; a message arriving with the deadline counts as the message).
   */
  async waitFor(kinds: Kind[], ms?: number): Promise<'message' | 'timeout'> {
    const woken = () => this.interrupted() || this.waiting.some((e) => kinds.includes(e.msg.kind));
    if (ms === undefined) {
      this.stopTimer();
      await condition(woken);
      return 'message';
    }
    const timer = this.timerAt(Date.now() + ms);
    await condition(() => woken() || timer.fired);
    return woken() ? 'message' : 'timeout';
  }

  /**
   * The timer for a wait until `at`. A wait for the same moment as the last one (an offer group
   * woken by a card opened, say, and waiting again for the same card's deadline) keeps the timer it
   * had: each timer started and cancelled is two history events and a row in Temporal's timer queue.
   */
  private timerAt(at: number): Timer {
    if (this.timer && this.timer.at === at && !this.timer.fired) return this.timer;
    this.stopTimer();
    const timer: Timer = { at, fired: false, scope: new CancellationScope() };
    timer.scope
      .run(() => sleep(at - Date.now()))
      .then(
        () => {
          timer.fired = true;
        },
        () => undefined, // cancelled: a later wait wanted another moment
      );
    this.timer = timer;
    return timer;
  }

  private stopTimer(): void {
    if (this.timer && !this.timer.fired) this.timer.scope.cancel();
    this.timer = null;
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
