// Applying to drive, as a driver types it on a phone (issue 24, item 5): every problem is reported
// at once, beside its field in plain words and listed at the top, never one at a time in field
// ids; the home area is picked from a list of councils by name; the registration and colour are
// asked for. axe finds no serious or critical issue on the form showing its problems.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserStack } from '../support/browser-stack.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import type { TestStack } from '../support/stack.js';

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

const errorBeside = (page: Page, field: string) => page.textContent(`[data-error-for="${field}"]`);

async function fillValid(page: Page, phone: string) {
  await page.fill('#name', 'Sunita Patel');
  await page.fill('#phone', phone);
  await page.fill('#email', 'sunita.patel@example.com');
  await page.fill('#licensing_authority', 'Manchester City Council');
  await page.fill('#driver_licence_number', 'MCC-D-20931');
  await page.fill('#driver_licence_expires', '2029-03-31');
  await page.fill('#vehicle_licence_number', 'MCC-V-4471');
  await page.fill('#vehicle_licence_expires', '2028-09-30');
  await page.fill('#vehicle_make', 'Skoda');
  await page.fill('#vehicle_model', 'Octavia');
  await page.fill('#vehicle_registration', 'MA21 KTX');
  await page.fill('#vehicle_colour', 'Dark blue');
  await page.selectOption('#home_area', { label: 'Manchester City Council' });
  await page.setInputFiles('#driver_licence_file', {
    name: 'licence.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n%%EOF'),
  });
  await page.setInputFiles('#vehicle_licence_file', {
    name: 'plate.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n%%EOF'),
  });
}

describe('the driver application form', () => {
  it('says everything missing at once, then every problem the service finds beside its field, and applies once corrected', async () => {
    const page = await (await browser.newContext({ viewport: PHONE_VIEWPORT })).newPage();
    await page.goto(`${base}/drivers/apply`);

    // Nothing typed: one press lists every required field, not the first one only.
    await page.click('button[type=submit]');
    await page.waitForSelector('#form-error:not([hidden])');
    expect(await page.textContent('#form-error')).toMatch(/\d+ things are missing/);
    expect(await errorBeside(page, 'name')).toBe('Full name is needed');
    expect(await errorBeside(page, 'vehicle_registration')).toMatch(/^Registration .* is needed$/);
    expect(await errorBeside(page, 'home_area')).toBe('Home licensing area is needed: choose one');
    expect(await errorBeside(page, 'driver_licence_file')).toBe('Driver licence is needed: choose a PDF, JPEG or PNG');
    expect(await page.getAttribute('#email', 'aria-invalid')).toBe('true');

    // The home area is a council by name, from a list; the id is what is sent.
    const options = await page.$$eval('#home_area option', (os) =>
      os.map((o) => [o.getAttribute('value'), o.textContent]),
    );
    expect(options).toContainEqual(['manchester', 'Manchester City Council']);
    expect(options).toContainEqual(['london-tfl', 'Transport for London']);
    expect(options).toContainEqual(['national-default', 'Another council']);

    // Typed as people type, with three mistakes: the service names each, beside its field, at once.
    await fillValid(page, '07400 123492');
    await page.fill('#email', 'sunita.patel@');
    await page.fill('#vehicle_registration', 'MA21 KTX!');
    await page.fill('#vehicle_colour', 'Blue 2');
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-error-for="vehicle_colour"]:not(:empty)');
    expect(await errorBeside(page, 'email')).toMatch(/^Email/);
    expect(await errorBeside(page, 'vehicle_registration')).toMatch(/must be a UK registration/);
    expect(await errorBeside(page, 'vehicle_colour')).toMatch(/^Colour may contain only letters/);
    expect(await errorBeside(page, 'name')).toBe('');
    const listed = await page.$$eval('#form-error li', (lis) => lis.length);
    expect(listed).toBe(3);
    expect(await page.textContent('#form-error')).not.toMatch(/body\.|vehicle_colour/);
    expect(
      await seriousA11yProblems(browser, `${base}/drivers/apply`, {
        before: async (p) => p.click('button[type=submit]'),
        ready: '#form-error:not([hidden])',
      }),
    ).toEqual([]);

    // Corrected: applied, with the area, registration and colour as chosen.
    await page.fill('#email', 'sunita.patel@example.com');
    await page.fill('#vehicle_registration', 'MA21 KTX');
    await page.fill('#vehicle_colour', 'Dark blue');
    await page.click('button[type=submit]');
    await page.waitForSelector('text=is with our operators');
    const [row] = await stack.sql<
      { home_area: string; vehicle_registration: string; vehicle_colour: string; phone: string }[]
    >`
      select home_area, vehicle_registration, vehicle_colour, phone from drivers where email = 'sunita.patel@example.com'`;
    expect(row).toMatchObject({
      home_area: 'manchester',
      vehicle_registration: 'MA21 KTX',
      vehicle_colour: 'Dark blue',
      phone: '+447400123492',
    });
    await page.context().close();
  });

  it('refuses a home area that is not on the list, in plain words', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/drivers/applications',
      remoteAddress: '10.66.0.1',
      payload: {
        name: 'Lee Applicant',
        phone: '07400 123493',
        email: 'lee.applicant@example.com',
        licensing_authority: 'Somewhere Council',
        driver_licence_number: 'SC-D-1',
        driver_licence_expires: '2030-01-01',
        vehicle_licence_number: 'SC-V-1',
        vehicle_licence_expires: '2030-01-01',
        vehicle_make: 'Toyota',
        vehicle_model: 'Prius',
        vehicle_registration: 'AB12CDE',
        vehicle_type: 'saloon',
        seats: 4,
        home_area: 'atlantis',
        tier: 'local',
        documents: [
          {
            kind: 'driver_licence',
            content_type: 'application/pdf',
            data_base64: Buffer.from('%PDF-1.4\n%%EOF').toString('base64'),
          },
          {
            kind: 'vehicle_licence',
            content_type: 'application/pdf',
            data_base64: Buffer.from('%PDF-1.4\n%%EOF').toString('base64'),
          },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'unknown_home_area',
      errors: [
        {
          field: 'body.home_area',
          message: expect.stringMatching(/choose the council that licensed you from the list/),
        },
      ],
    });
  });
});
