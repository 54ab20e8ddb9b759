// A stack whose HTTP API listens on a port of its own, with headless Chromium beside it, for the
// tests that walk pages in a browser. The pages link to PUBLIC_BASE_URL, so it is this run's address.
import { chromium, type Browser } from 'playwright-core';
import { freePort } from '../../dev/free-port.js';
import { startStack, type TestStack } from './stack.js';

/** Debian's chromium, as .ci/run installs it. */
export const CHROMIUM = { executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] };

export async function startBrowserStack(env: Record<string, string> = {}): Promise<{ stack: TestStack; browser: Browser; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const stack = await startStack({ PUBLIC_BASE_URL: base, ...env });
  await stack.app.listen({ port, host: '127.0.0.1' });
  const browser = await chromium.launch(CHROMIUM);
  return { stack, browser, base };
}
