// The sending policy as people meet it (issue 33, item 1), in Chromium: a passenger at phone size
// who types a premium-rate number is told beside the field why it cannot be used, and books with
// their mobile; a visitor books with a French mobile and is not texted; ops, at desktop size, read
// in the booking's story that the text was held back and why.
import type { Browser, Page } from 'playwright-core';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../src/auth/staff.js';
import { openOpsStory, openWatched, startBrowserStack } from '../support/browser-stack.js';
import { DESKTOP_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { testMobile } from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, type TestStack } from '../support/stack.js';

let stack: TestStack;
let browser: Browser;
let base: string;
beforeAll(async () => {
  ({ stack, browser, base } = await startBrowserStack());
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const tomorrowAtTen = () =>
  DateTime.now().setZone('Europe/London').plus({ days: 1 }).set({ hour: 10, minute: 0 }).toFormat("yyyy-LL-dd'T'HH:mm");
const national = (e164: string) => `0${e164.slice(3, 7)} ${e164.slice(7)}`;

async function toBookingForm(page: Page): Promise<void> {
  await page.fill('#pickup', '221B Baker Street, London NW1 6XE');
  await page.fill('#dropoff', 'Heathrow Terminal 5');
  await page.fill('#when', tomorrowAtTen());
  await Promise.all([page.waitForURL(/\/book\/[0-9a-f-]{36}$/), page.click('button:has-text("See the fare")')]);
  await page.fill('#passenger_name', 'Irene Adler');
  await page.check('input[name="payment_method"][value="cash_to_driver"]');
}

const bookedRef = async (page: Page) => {
  await page.waitForURL(/\/track\/TX[0-9A-Z]{8,10}(#t=[^#]+)?$/);
  return new URL(page.url()).pathname.split('/').pop()!;
};

describe('numbers, as the passenger types them', () => {
  it('says beside the field that a premium-rate number cannot be used, then books with a mobile', async () => {
    const problems: string[] = [];
    const page = await openWatched(browser, problems, `${base}/`);
    await toBookingForm(page);
    await page.fill('#passenger_phone_whatsapp', '0909 879 0123');
    await page.click('#submit');
    const error = page.locator('[data-error-for="passenger_phone_whatsapp"]');
    await expect.poll(() => error.textContent(), { timeout: STACK_WAIT_MS }).toMatch(/premium-rate/);
    expect(await page.getAttribute('#passenger_phone_whatsapp', 'aria-invalid')).toBe('true');
    // The page with the refusal on it, as a screen reader meets it.
    const refused = await seriousA11yProblems(browser, page.url(), {
      before: async (p) => {
        await p.fill('#passenger_name', 'Irene Adler');
        await p.check('input[name="payment_method"][value="cash_to_driver"]');
        await p.fill('#passenger_phone_whatsapp', '0909 879 0123');
        await p.click('#submit');
        await p.waitForSelector('[data-error-for="passenger_phone_whatsapp"]:has-text("premium-rate")');
      },
    });
    expect(refused).toEqual([]);

    const mobile = testMobile();
    await page.fill('#passenger_phone_whatsapp', national(mobile));
    await page.click('#submit');
    const ref = await bookedRef(page);
    const texted = await eventually(
      async () => {
        const [row] = await stack.sql<
          { body: string }[]
        >`select body from outbox where idempotency_key = ${`booked:${ref}`}`;
        return row?.body;
      },
      STACK_WAIT_MS,
      'the booked text',
    );
    expect(texted).toContain(ref);
    expect(await stack.sql`select 1 from outbox where recipient = '+449098790123'`).toHaveLength(0);
    expect(problems).toEqual([]);
  });

  it('books a visitor’s foreign mobile without texting it, and ops read why in the story', async () => {
    const problems: string[] = [];
    const page = await openWatched(browser, problems, `${base}/`);
    await toBookingForm(page);
    const foreign = `+33 6 12 ${String(Math.floor(Math.random() * 90) + 10)} 56 78`;
    await page.fill('#passenger_phone_whatsapp', foreign);
    await page.click('#submit');
    const ref = await bookedRef(page);
    const e164 = foreign.replace(/\s/g, '');
    await eventually(
      async () =>
        (await stack.sql`select 1 from messages_withheld where idempotency_key = ${`booked:${ref}`}`).length > 0
          ? true
          : undefined,
      STACK_WAIT_MS,
      'the text held back',
    );
    expect(await stack.sql`select 1 from outbox where recipient = ${e164}`).toHaveLength(0);

    // Ops, at a desk, look the booking up and read the held-back text in its messages.
    const { key } = await createStaff(stack.sql, { name: 'Desk ops', role: 'operator' });
    const desk = await openOpsStory(browser, problems, base, key, ref, DESKTOP_VIEWPORT);
    await expect
      .poll(async () => (await desk.textContent('#story')) ?? '', { timeout: STACK_WAIT_MS })
      .toContain('held back: number not served');
    expect(problems).toEqual([]);
  });
});
