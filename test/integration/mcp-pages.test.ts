// The pages a passenger sees when an AI assistant asks to use their account, in headless Chromium
// on a phone-sized screen: sign in with a code texted to their phone (wrong number and wrong code
// refused on the page), then a consent page naming the assistant, where it really comes from and
// what it may do; Allow sends the browser back to the assistant with a code, Deny with
// access_denied. Each page is checked with axe, light and dark, under its real CSP.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { PHONE_VIEWPORT, seriousA11yProblems } from '../support/axe.js';
import { authorizationRequestUrl, signInCodeSentTo, startClientHost, type ClientHost } from '../support/oauth.js';
import { startStack, type TestStack } from '../support/stack.js';
import { launchChromium } from '../support/browser-stack.js';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
  'signing in and allowing an assistant, in headless Chromium',
  () => {
    let stack: TestStack;
    let host: ClientHost;
    let browser: Browser;
    let base: string;
    let problems: string[] = [];

    beforeAll(async () => {
      host = await startClientHost();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      // Every sign-in here comes from loopback: the per-address code allowance is not what is tested.
      stack = await startStack(
        { PUBLIC_BASE_URL: base, OAUTH_RATE_LIMIT_PER_MINUTE: '1000', SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: '1000' },
        { oauthFetch: host.fetch },
      );
      await stack.app.listen({ port, host: '127.0.0.1' });
      browser = await launchChromium();
      host.publish('planner', {
        client_id: host.metadataClientId('planner'),
        client_name: 'Trip Planner Assistant',
        redirect_uris: [host.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      });
    });
    afterEach(() => {
      expect(problems).toEqual([]);
      problems = [];
    });
    afterAll(async () => {
      await browser?.close();
      await stack?.close();
      await host?.close();
    });

    const authorizationUrl = () =>
      authorizationRequestUrl({
        endpoint: `${base}/oauth/authorize`,
        clientId: host.metadataClientId('planner'),
        redirectUri: host.redirectUri,
        resource: `${base}/mcp`,
      });

    async function open(url: string): Promise<{ page: Page; context: BrowserContext }> {
      const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
      const page = await context.newPage();
      page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text()))
          problems.push(`${page.url()}: ${msg.text()}`);
      });
      await page.goto(url);
      return { page, context };
    }

    /** axe on the page this context is on, with its cookies (the interaction is bound to them). */
    async function a11y(context: BrowserContext, page: Page) {
      return seriousA11yProblems(browser, page.url(), { context: { storageState: await context.storageState() } });
    }

    async function signIn(page: Page, context: BrowserContext, phone: string) {
      await page.getByRole('heading', { name: 'Sign in to Direct Taxi' }).waitFor();
      const signInUrl = page.url();
      // The code page answers a form post: axe gets there the same way, in a context of its own.
      const sendCode = async (p: Page) => {
        await p.getByLabel('Your mobile number or email').fill(phone);
        await p.getByRole('button', { name: 'Send me a code' }).click();
        await p.getByRole('heading', { name: 'Enter your code' }).waitFor();
      };
      expect(
        await seriousA11yProblems(browser, signInUrl, {
          context: { storageState: await context.storageState() },
          before: sendCode,
        }),
      ).toEqual([]);
      const since = new Date(Date.now() - 1000);
      await sendCode(page);
      const code = await signInCodeSentTo(stack.sql, phone, since);
      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }

    it('signs a passenger in with a texted code, names the assistant on the consent page, and sends the browser back on Allow', async () => {
      const phone = `+4474008${String(10000 + (Date.now() % 89999)).padStart(5, '0')}`;
      const { page, context } = await open(await authorizationUrl());
      await page.getByRole('heading', { name: 'Sign in to Direct Taxi' }).waitFor();
      const intro = await page.locator('main p').first().textContent();
      expect(intro).toContain('Trip Planner Assistant');
      expect(intro).toContain('assistant.example');
      expect(await a11y(context, page)).toEqual([]);

      // A landline gets no code: the page says codes go to mobiles.
      await page.getByLabel('Your mobile number or email').fill('0161 496 0000');
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await expect.poll(() => page.locator('#identifier-error').textContent()).toMatch(/mobile/);
      expect(await page.getByLabel('Your mobile number or email').getAttribute('aria-invalid')).toBe('true');

      // The mobile as people write it in the UK; a wrong code is refused, and the right one still works.
      const since = new Date(Date.now() - 1000);
      await page.getByLabel('Your mobile number or email').fill(`0${phone.slice(3, 7)} ${phone.slice(7)}`);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
      // Shown back as typed at home, not as stored.
      expect(await page.locator('main').textContent()).toContain(`0${phone.slice(3, 7)} ••• ${phone.slice(-3)}`);
      const code = await signInCodeSentTo(stack.sql, phone, since);
      await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.locator('#code-error').textContent()).toMatch(/not right/);
      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('heading', { name: 'Allow Trip Planner Assistant?' }).waitFor();
      const scopes = await page.locator('ul.scopes li').allTextContents();
      expect(scopes).toEqual([
        expect.stringContaining('See taxi fares'),
        expect.stringContaining('Book taxis in your name'),
      ]);
      expect(await a11y(context, page)).toEqual([]);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.toString().startsWith(host.redirectUri));
      const back = new URL(page.url());
      expect(back.searchParams.get('code')).toBeTruthy();
      expect(back.searchParams.get('iss')).toBe(base);
      await context.close();
    });

    it('sends the browser back with access_denied when the passenger denies', async () => {
      const phone = `+4474008${String(10000 + ((Date.now() + 7) % 89999)).padStart(5, '0')}`;
      const { page, context } = await open(await authorizationUrl());
      await signIn(page, context, phone);
      await page.getByRole('heading', { name: 'Allow Trip Planner Assistant?' }).waitFor();
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.waitForURL((u) => u.toString().startsWith(host.redirectUri));
      expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
      await context.close();
    });

    it('explains a sign-in link opened in another browser instead of showing it', async () => {
      const { page: first, context: firstContext } = await open(await authorizationUrl());
      await first.getByRole('heading', { name: 'Sign in to Direct Taxi' }).waitFor();
      const { page, context } = await open(first.url());
      await page.getByRole('heading', { name: 'This sign-in has ended' }).waitFor();
      await context.close();
      await firstContext.close();
    });
  },
);
