import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/**
 * Work a route starts and never waits for, so its reply cannot tell how much work there was (the
 * claim link by reference: a text for the booking's own phone, nothing for any other; issue 33).
 * Each task begins on the event loop's next turn, after the handler has replied; a failure is
 * logged, never thrown; the app waits for the tasks still running when it closes (this plugin's
 * hooks run before those of the plugins it was built on, the database's included).
 */
export function backgroundWork(app: FastifyInstance, what: string): (work: () => Promise<unknown>) => void {
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
  });
  return (work) => {
    const task: Promise<void> = nextTurn()
      .then(work)
      .then(
        () => undefined,
        (err: unknown) => app.log.error({ err }, `${what} failed`),
      )
      .finally(() => running.delete(task));
    running.add(task);
  };
}
