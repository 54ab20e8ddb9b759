// The commands a person types, run as they would run them: each in a process group of its own (so a
// Ctrl-C reaches everything it started), its output kept for the test's message, and every one
// still running when a file ends killed (each file calls `afterAll(killStragglers)`: with vitest's
// isolate off, this module is imported once per worker, so it cannot register the hook itself).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const children = new Set<ChildProcess>();
export function killStragglers(): void {
  for (const c of children) c.kill('SIGKILL');
}

export interface Run {
  child: ChildProcess;
  output: () => string;
  /** The exit code, or the signal's name when a signal ended it (npm itself ends on Ctrl-C so). */
  exited: Promise<number | string | null>;
}

export function run(cmd: string, args: string[], env: Record<string, string> = {}): Run {
  // Own process group, so a Ctrl-C (SIGINT) can be sent to it the way a terminal would.
  const child = spawn(cmd, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? signal);
    }),
  );
  return { child, output: () => out, exited };
}

export async function waitFor(r: Run, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(r.output())) {
    if (Date.now() > deadline || r.child.exitCode !== null)
      throw new Error(`never printed ${pattern}; output:\n${r.output().slice(-4000)}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

export async function finished(r: Run, timeoutMs: number): Promise<number | string | null> {
  const timer = setTimeout(() => r.child.kill('SIGKILL'), timeoutMs);
  const code = await r.exited;
  clearTimeout(timer);
  return code;
}

export const interrupt = (r: Run) => process.kill(-r.child.pid!, 'SIGINT');
