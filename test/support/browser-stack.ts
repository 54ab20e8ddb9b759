// A stack whose HTTP API listens on a port of its own, with headless Chromium beside it, for the
// tests that walk pages in a browser. The pages link to PUBLIC_BASE_URL, so it is this run's address.
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { freePort } from '../../dev/free-port.js';
import { PHONE_VIEWPORT } from './axe.js';
import { STACK_WAIT_MS, startStack, type TestStack } from './stack.js';

/** Debian's chromium, as .ci/run installs it; nothing it would fetch from the internet on its own. */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-quic',
    '--no-first-run',
    '--disable-sync',
  ],
};

/**
 * Chromium, every page of it waiting for what the stack does as the tests' other waits do
 * (STACK_WAIT_MS, not Playwright's 30 s: a page waiting on a card or a status ran out with two
 * integration files at once on 2 cores).
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch(CHROMIUM);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options?: BrowserContextOptions) => {
    const context = await newContext(options);
    context.setDefaultTimeout(STACK_WAIT_MS);
    return context;
  };
  return browser;
}

export async function startBrowserStack(
  env: Record<string, string> = {},
): Promise<{ stack: TestStack; browser: Browser; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const stack = await startStack({ PUBLIC_BASE_URL: base, ...env });
  await stack.app.listen({ port, host: '127.0.0.1' });
  const browser = await launchChromium();
  return { stack, browser, base };
}

/**
 * Records what a person would see go wrong on the page: a script error, or the browser refusing
 * something under the Content Security Policy. Tests assert the list stays empty.
 */
export function watchPage(page: Page, problems: string[]): Page {
  page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text()))
      problems.push(`${page.url()}: ${msg.text()}`);
  });
  return page;
}

/** A fresh context (phone-sized unless told otherwise) on url, watched as watchPage watches. */
export async function openWatched(
  browser: Browser,
  problems: string[],
  url: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, ...options });
  const page = watchPage(await context.newPage(), problems);
  await page.goto(url);
  return page;
}

/**
 * The ops console at a desk, signed in with `key`, open at one booking's story. The console shows
 * at once, but the tab keeps the key only once the board has loaded with it (src/pages/browser/dom.ts
 * keyConsole): following a link before then would be signed out.
 */
export async function openOpsStory(
  browser: Browser,
  problems: string[],
  base: string,
  key: string,
  ref: string,
  viewport: { width: number; height: number },
): Promise<Page> {
  const desk = await openWatched(browser, problems, `${base}/ops/bookings`, { viewport });
  await desk.fill('#key', key);
  await desk.click('#key-form button[type=submit]');
  await desk.waitForSelector('#console', { state: 'visible' });
  await desk.waitForFunction(() => sessionStorage.getItem('directTaxiStaffKey') !== null);
  await desk.goto(`${base}/ops/bookings?ref=${ref}`);
  return desk;
}
