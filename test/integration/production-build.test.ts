// The service as production runs it (issue 21, item 9): `npm run build` compiles it to JavaScript
// in build/, the Dockerfile's layout, and plain `node` runs the API and the worker from there, with
// no tsx and none of the packages production leaves out (`npm ci --omit=dev`).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { signTestProviderEvent } from '../../src/billing/test-provider.js';
import { DEV_BILLING_TEST_WEBHOOK_SECRET, DEV_OAUTH_SECRET } from '../../src/production-config.js';
import { eventually } from '../support/stack.js';
import { createTestDatabase, testNamespace, testTemporalAddress } from '../support/shared-servers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const build = path.join(root, 'build');
const children: ChildProcess[] = [];
const output: string[] = [];

function node(script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [path.join(build, script)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
  children.push(child);
  return child;
}

/** Every package a compiled module imports by name, whether statically or with import(). */
function importedPackages(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const text = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    const specs = [
      ...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?from\s*['"]([^'"]+)['"]/gm),
      ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
      ...text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((m) => m[1]!);
    for (const spec of specs) {
      if (spec.startsWith('node:') || spec.startsWith('.')) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return names;
}

describe('npm run build', () => {
  beforeAll(async () => {
    const built = spawn('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    built.stdout.on('data', (c: Buffer) => (out += c.toString()));
    built.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => built.once('exit', resolve));
    expect(code, out).toBe(0);
  }, 180_000);

  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('imports only production dependencies', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const missing = [...importedPackages(build)].filter((name) => !(name in pkg.dependencies));
    expect(missing).toEqual([]);
  });

  it('runs the API and the worker with plain node: a booking made through the compiled API is dispatched by the compiled worker', async () => {
    const port = await freePort();
    // A database of its own: production secrets seal what the API writes (its OAuth signing keys)
    // under keys the other test files' stacks do not have.
    const database = `taxi_build_${randomBytes(4).toString('hex')}`;
    const url = new URL(await createTestDatabase(database));
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: url.toString(),
      TEMPORAL_ADDRESS: testTemporalAddress(),
      TEMPORAL_NAMESPACE: testNamespace(),
      // A queue of its own, so only the compiled worker can run this booking.
      TEMPORAL_TASK_QUEUE: `built-${randomBytes(4).toString('hex')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      JOB_LINK_SECRET: randomBytes(32).toString('base64'),
      PARTNER_SECRETS_KEY: randomBytes(32).toString('base64'),
      OAUTH_SECRET: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
      NOTIFIER: 'outbox',
      // Production names who collects invoices (the test double is refused): none, not yet.
      BILLING_PAYMENT_PROVIDER: 'none',
    };
    const api = node('src/server.js', env);
    node('src/worker.js', env);
    const base = `http://127.0.0.1:${port}`;
    await eventually(
      async () => {
        if (api.exitCode !== null) throw new Error(`the API exited: ${output.join('').slice(-3000)}`);
        return (await fetch(`${base}/readyz`).catch(() => null))?.ok || undefined;
      },
      60_000,
      'the compiled API to be ready',
    );

    const booked = await fetch(`${base}/api/public/bookings/instant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        pickup_address: '1 Piccadilly, Manchester M1 1RG',
        dropoff_address: 'Manchester Airport',
        passenger_name: 'Ada Lovelace',
        passenger_phone_whatsapp: '+447400123456',
      }),
    });
    expect(booked.status, await booked.clone().text()).toBe(200);
    const { booking_reference: ref, manage_token: token } = (await booked.json()) as {
      booking_reference: string;
      manage_token: string;
    };
    // Only the workflow moves a booking on from 'confirmed': the compiled worker ran it.
    const status = await eventually(
      async () => {
        const s = (
          (await (await fetch(`${base}/api/public/v1/booking/${ref}?token=${token}`)).json()) as { status: string }
        ).status;
        return s === 'confirmed' ? undefined : s;
      },
      60_000,
      `the compiled worker to dispatch ${ref}`,
    );
    expect(['dispatching', 'unassigned', 'assigned']).toContain(status);

    // No payment is taken: an invoice.paid signed with the test double's published secret is refused.
    const now = Math.floor(Date.now() / 1000);
    const forged = JSON.stringify({
      type: 'invoice.paid',
      data: { invoice_reference: 'invoice:driver:d-1:2026-10-19', amount_pence: 1500, reference: 'test_cs_forged' },
    });
    const hook = await fetch(`${base}/api/webhooks/billing`, {
      method: 'POST',
      headers: signTestProviderEvent(DEV_BILLING_TEST_WEBHOOK_SECRET, 'evt_forged', now, forged),
      body: forged,
    });
    expect(hook.status, await hook.clone().text()).toBe(400);
  }, 180_000);

  it('refuses to start production with the test payment provider or a published secret, naming the setting (API and worker alike)', async () => {
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/never-reached',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      PORT: String(await freePort()),
      JOB_LINK_SECRET: randomBytes(32).toString('base64'),
      PARTNER_SECRETS_KEY: randomBytes(32).toString('base64'),
      OAUTH_SECRET: randomBytes(32).toString('base64'),
    };
    const refused = async (script: string, extra: Record<string, string>) => {
      const child = spawn(process.execPath, [path.join(build, script)], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', ...env, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { code, out };
    };
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /BILLING_PAYMENT_PROVIDER: unset \(its default, test\) is the development double/], // what production ran before issue 33
      [{ BILLING_PAYMENT_PROVIDER: 'test' }, /BILLING_PAYMENT_PROVIDER: test is the development double/],
      [
        { BILLING_PAYMENT_PROVIDER: 'none', PAYMENT_WEBHOOK_SECRETS: DEV_BILLING_TEST_WEBHOOK_SECRET },
        /PAYMENT_WEBHOOK_SECRETS: holds a published secret/,
      ],
      [{ BILLING_PAYMENT_PROVIDER: 'none', OAUTH_SECRET: DEV_OAUTH_SECRET }, /OAUTH_SECRET: is a published value/],
    ];
    for (const [extra, message] of cases) {
      for (const script of ['src/server.js', 'src/worker.js']) {
        const { code, out } = await refused(script, extra);
        expect(code, out).toBe(1);
        expect(out).toMatch(/Invalid configuration:/);
        expect(out).toMatch(message);
      }
    }
  }, 60_000);
});
