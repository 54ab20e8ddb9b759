import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The time-skipping test server binary (installed on first use by scripts/install-test-server.sh). */
export function testServerPath(): string {
  const out = execFileSync('bash', [path.join(root, 'scripts/install-test-server.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const exe = out.trim().split('\n').pop();
  if (!exe) throw new Error('scripts/install-test-server.sh printed no path');
  return exe;
}

const noop = () => {};
export const quietLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: console.error, log: noop };
