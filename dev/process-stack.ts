// What `npm start` and `npm run start:cluster` share: the processes they started, stopped in
// reverse order on Ctrl-C or when any one of them dies.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from './temporal-dev-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export class ProcessStack {
  private readonly stops: Array<{ name: string; stop: () => Promise<void> }> = [];
  stopping = false;

  constructor(private readonly tag: string) {
    process.on('SIGINT', () => void this.shutdown(0));
    process.on('SIGTERM', () => void this.shutdown(0));
  }

  /** Stopped after everything added later, before everything added earlier. */
  add(name: string, stop: () => Promise<void>, child?: ChildProcess): void {
    child?.once('exit', (code, signal) => {
      if (!this.stopping) {
        console.error(`[${this.tag}] ${name} exited (${signal ?? code}); stopping the rest`);
        void this.shutdown(1);
      }
    });
    this.stops.push({ name, stop });
  }

  /** A Node entry point of this project (src/server.ts, src/worker.ts) as a child process. */
  runService(name: string, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
    // Own process group: Ctrl-C reaches only the starter, which then stops children in order.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    this.add(name, () => stopChild(child, 15_000), child);
    return child;
  }

  async shutdown(code: number): Promise<void> {
    // npm and sh each pass the same Ctrl-C on, so signals arrive more than once: only the first
    // one starts the ordered stop, and nothing exits before it is done. package.json runs the
    // starters as `node --import tsx`, not the tsx CLI: the CLI relays a Ctrl-C to its child and
    // SIGKILLs it if the child has not acknowledged within 30 ms, which on a busy machine cut the
    // ordered stop off halfway and left the APIs and workers running.
    if (this.stopping) return;
    this.stopping = true;
    console.log(`\n[${this.tag}] stopping...`);
    for (const { name, stop } of this.stops.reverse()) {
      await stop().catch((err: unknown) => console.error(`[${this.tag}] stopping ${name}: ${String(err)}`));
      console.log(`[${this.tag}] stopped ${name}`);
    }
    process.exit(code);
  }

  async waitForHttp(url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && !this.stopping) {
      try {
        if ((await fetch(url)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error(`${url} not ready after ${timeoutMs} ms`);
  }
}
