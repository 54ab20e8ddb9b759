// Issue 39 as people meet it, in Chromium, with the service sending for real (NOTIFIER=live) to the
// providers' own test servers: Mailpit for email, Prism on Twilio's published API for texts. A
// passenger at phone size books from a flat in Baker Street with "07400 123456" and an email; the
// text Twilio's API received and the email Mailpit received are what the passenger reads, and the
// email's link opens their booking. A second passenger's number has texted STOP: Twilio refuses
// the text, and ops, at a desk, read in the booking's story what Twilio said.
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailpit, type Mailpit } from '../../dev/providers/mailpit.js';
import { startTwilioMock, type TwilioMock } from '../../dev/providers/twilio.js';
import { createStaff } from '../../src/auth/staff.js';
import { DESKTOP_VIEWPORT } from '../support/axe.js';
import { openOpsStory, openWatched, startBrowserStack } from '../support/browser-stack.js';
import { eventually, STACK_WAIT_MS, type TestStack } from '../support/stack.js';

let mailpit: Mailpit;
let twilio: TwilioMock;
let stack: TestStack;
let browser: Browser;
let base: string;
beforeAll(async () => {
  [mailpit, twilio] = await Promise.all([startMailpit(), startTwilioMock()]);
  ({ stack, browser, base } = await startBrowserStack({
    NOTIFIER: 'live',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(mailpit.smtpPort),
    SMTP_FROM: '"Direct Taxi" <bookings@direct-taxi.test>',
    TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
    TWILIO_AUTH_TOKEN: randomBytes(16).toString('hex'),
    TWILIO_SMS_FROM: '+447700900000',
    TWILIO_WHATSAPP_FROM: '+447700900001',
    TWILIO_API_BASE: twilio.url,
  }));
}, 25 * 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await Promise.all([mailpit?.stop(), twilio?.stop()]);
});

const tomorrowAtTen = () =>
  DateTime.now().setZone('Europe/London').plus({ days: 1 }).set({ hour: 10, minute: 0 }).toFormat("yyyy-LL-dd'T'HH:mm");

/** Books on the home page at phone size as a passenger types it; the booking's reference. */
async function book(problems: string[], phone: string, email: string | null): Promise<string> {
  const page = await openWatched(browser, problems, `${base}/`);
  await page.fill('#pickup', 'Flat 2, 221B Baker Street, London NW1 6XE');
  await page.fill('#dropoff', 'heathrow t5');
  await page.fill('#when', tomorrowAtTen());
  await Promise.all([page.waitForURL(/\/book\/[0-9a-f-]{36}$/), page.click('button:has-text("See the fare")')]);
  await page.fill('#passenger_name', 'Zoë Brontë');
  await page.fill('#passenger_phone_whatsapp', phone);
  if (email) await page.fill('#passenger_email', email);
  await page.check('input[name="payment_method"][value="cash_to_driver"]');
  await page.click('#submit');
  await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

describe('a booking’s messages, as the providers received them', () => {
  it('texts the passenger through Twilio’s API and emails them through Mailpit; the email’s link opens the booking', async () => {
    const problems: string[] = [];
    const ref = await book(problems, '07400 123456', 'zoe.bronte@example.co.uk');

    const text = await eventually(
      async () => twilio.requests().find((r) => r.form.Body?.includes(`${ref} booked`)),
      STACK_WAIT_MS,
      'the booked text at Twilio',
    );
    expect(text).toMatchObject({ status: 201, violations: [], form: { To: '+447400123456', From: '+447700900000' } });
    expect(text.form.Body).toContain('221B Baker Street');
    expect(text.form.Body).toMatch(/Fare £\d+\.\d\d/);

    const [listed] = await eventually(
      async () => {
        const found = await mailpit.search(`to:"zoe.bronte@example.co.uk" subject:"${ref}"`);
        return found.length > 0 ? found : undefined;
      },
      STACK_WAIT_MS,
      'the confirmation in Mailpit',
    );
    const mail = await mailpit.message(listed!.ID);
    expect(mail.Subject).toBe(`Your taxi ${ref} is booked`);
    expect(mail.Text).toContain('Hello Zoë Brontë');
    const link = /https?:\/\/\S+\/track\/\S+/.exec(mail.Text)?.[0];
    expect(link, mail.Text).toBeDefined();

    // The passenger taps the email's link on their phone: their booking, by its reference.
    const fromEmail = await openWatched(browser, problems, link!);
    await expect
      .poll(async () => (await fromEmail.textContent('body')) ?? '', { timeout: STACK_WAIT_MS })
      .toContain(ref);
    // What the ledger says of both: sent, with the providers' own ids.
    expect(
      await stack.sql`select channel, provider, attempts, provider_message_id is not null as has_id, sent_at is not null as sent
                        from outbox where idempotency_key in ${stack.sql([`booked:${ref}`, `confirmation:${ref}`])} order by channel`,
    ).toEqual([
      { channel: 'email', provider: 'smtp', attempts: 1, has_id: true, sent: true },
      { channel: 'sms', provider: 'twilio', attempts: 1, has_id: true, sent: true },
    ]);
    expect(problems).toEqual([]);
  });

  it('shows ops what Twilio said when it refused a passenger’s text: the recipient texted STOP', async () => {
    const problems: string[] = [];
    // 07400 900610: the Twilio mock answers it as Twilio answers a recipient who unsubscribed.
    const ref = await book(problems, '07400 900610', null);
    const refused = await eventually(
      async () =>
        (
          await stack.sql<{ last_error_code: string | null; refused_at: Date | null; attempts: number }[]>`
            select last_error_code, refused_at, attempts from outbox where idempotency_key = ${`booked:${ref}`} and refused_at is not null`
        )[0],
      STACK_WAIT_MS,
      'the refused booked text',
    );
    expect(refused).toMatchObject({ last_error_code: '21610', attempts: 1 });

    const { key } = await createStaff(stack.sql, { name: 'Desk ops', role: 'operator' });
    const desk = await openOpsStory(browser, problems, base, key, ref, DESKTOP_VIEWPORT);
    await expect
      .poll(async () => (await desk.textContent('#story')) ?? '', { timeout: STACK_WAIT_MS })
      .toContain('refused (400, error 21610; 1 attempt)');
    expect(problems).toEqual([]);
  });
});
