// Issue 39, item 4, as docs/providers.md tells a newcomer to run it: `PROVIDERS=local npm start`
// sends a booking's email to Mailpit and its text to Twilio's published API (Prism), says where
// each is in its banner and stack.json, and Ctrl-C stops the providers' servers with the rest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canListen, freePort } from '../../dev/free-port.js';
import { providerExecutable } from '../../dev/providers/servers.js';
import type { StackState } from '../../dev/stack-settings.js';
import { finished, interrupt, killStragglers, run, waitFor } from '../support/commands.js';
import { eventually, STACK_WAIT_MS } from '../support/stack.js';

afterAll(killStragglers);
// On a machine that has never built them, the Go builds take minutes (docs/providers.md): done here,
// so the start below is timed as a newcomer's second start, not its first build.
beforeAll(async () => {
  for (const name of ['mailpit', 'stripe-mock', 'prism'] as const) await providerExecutable(name);
}, 25 * 60_000);

describe.skipIf(process.env.TEST_TOPOLOGY === 'cluster')('PROVIDERS=local npm start', () => {
  it("sends a booking's email to Mailpit and its text to Twilio's API, and Ctrl-C stops them", async () => {
    const ports = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    const [port, pgPort, temporalPort, uiPort, metricsPort] = ports;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-providers-'));
    const api = `http://127.0.0.1:${port}`;
    const start = run('npm', ['start'], {
      PROVIDERS: 'local',
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      WORKER_METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
    });
    let providers: NonNullable<StackState['providers']> | undefined;
    try {
      await waitFor(start, /Direct Taxi is running/, 240_000);
      providers = (JSON.parse(fs.readFileSync(path.join(dataDir, 'stack.json'), 'utf8')) as StackState).providers;
      expect(providers).toBeDefined();
      const { mailpitUrl, twilioRequestLog } = providers!;
      expect(start.output()).toContain(`Emails         ${mailpitUrl}`);
      expect(start.output()).toContain(`Texts          ${twilioRequestLog}`);

      const booked = await fetch(`${api}/api/public/bookings/instant`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          pickup_address: 'Flat 2, 221B Baker Street, London NW1 6XE',
          dropoff_address: 'Heathrow Terminal 5',
          passenger_name: 'Zoë Brontë',
          passenger_phone_whatsapp: '07400 123456',
          passenger_email: 'zoe.bronte@example.co.uk',
        }),
      });
      expect(booked.status, await booked.clone().text()).toBe(200);
      const { booking_reference: ref } = (await booked.json()) as { booking_reference: string };

      // The confirmation, as Mailpit's page lists it.
      const mail = await eventually(
        async () => {
          const res = await fetch(
            `${mailpitUrl}/api/v1/search?query=${encodeURIComponent(`to:"zoe.bronte@example.co.uk" subject:"${ref}"`)}`,
          );
          const { messages } = (await res.json()) as {
            messages: Array<{ Subject: string; To: Array<{ Address: string }>; From: { Address: string } }>;
          };
          return messages[0];
        },
        STACK_WAIT_MS,
        'the confirmation in Mailpit',
      );
      expect(mail).toMatchObject({
        Subject: `Your taxi ${ref} is booked`,
        To: [{ Address: 'zoe.bronte@example.co.uk' }],
        From: { Address: 'bookings@direct-taxi.localhost' },
      });

      // The booked text, as Twilio's API took it: to the number typed, accepted with no violation.
      const text = await eventually(
        async () => {
          const lines = fs.existsSync(twilioRequestLog)
            ? fs.readFileSync(twilioRequestLog, 'utf8').trim().split('\n').filter(Boolean)
            : [];
          return lines
            .map(
              (l) =>
                JSON.parse(l) as {
                  form: { To?: string; Body?: string };
                  status: number;
                  violations: string[];
                  headers: Record<string, string>;
                },
            )
            .find((x) => x.form.Body?.includes(`${ref} booked`));
        },
        STACK_WAIT_MS,
        'the booked text at the Twilio mock',
      );
      expect(text).toMatchObject({ form: { To: '+447400123456' }, status: 201, violations: [] });
      // The log is for reading: Twilio's auth token is not in it.
      expect(text.headers.authorization).toBeUndefined();
    } finally {
      interrupt(start);
      const code = await finished(start, 90_000);
      fs.rmSync(dataDir, { recursive: true, force: true });
      expect(start.output()).toMatch(/stopped stripe-mock[\s\S]*stopped twilio mock[\s\S]*stopped mailpit/);
      expect([0, 'SIGINT'], start.output().slice(-3000)).toContain(code);
    }
    // Nothing of theirs is left listening.
    for (const url of [providers!.mailpitUrl, providers!.twilioUrl, providers!.stripeUrl])
      expect(await canListen(Number(new URL(url).port)), url).toBe(true);
  }, 420_000);
});
