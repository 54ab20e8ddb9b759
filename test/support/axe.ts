// Accessibility checks with axe-core inside the Chromium tests. The pages' CSP refuses any script
// it was not told about, axe included, so axe runs in a context of its own that bypasses CSP; the
// behaviour checks keep their ordinary context, where the policy is enforced and its refusals fail
// the test.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A phone: these pages are read on phones. */
export const PHONE_VIEWPORT = { width: 390, height: 844 };
/** The consoles are walked at a desk's size. */
export const DESKTOP_VIEWPORT = { width: 1440, height: 900 };

export interface A11yProblem {
  id: string;
  impact: string;
  help: string;
  /** Selectors of the offending elements. */
  targets: string[];
}

/**
 * axe's serious and critical violations on the page at `url`, in light and dark colour schemes, on
 * a phone-sized screen (or the viewport `context` gives), plus sideways scrolling (a page wider than the screen). `ready` is waited
 * for before checking, e.g. the map once it shows. `context` sets up the browser, e.g. a signed-in
 * session in localStorage; `before` acts on the page first, e.g. signs in.
 */
export async function seriousA11yProblems(
  browser: Browser,
  url: string,
  opts: { ready?: string; context?: BrowserContextOptions; before?: (page: Page) => Promise<void> } = {},
): Promise<A11yProblem[]> {
  const problems: A11yProblem[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    // A phone unless the test says otherwise (a console is checked on a desktop's screen).
    const context = await browser.newContext({
      ...opts.context,
      viewport: opts.context?.viewport ?? PHONE_VIEWPORT,
      colorScheme,
      bypassCSP: true,
    });
    try {
      const page = await context.newPage();
      await page.goto(url);
      if (opts.before) await opts.before(page);
      if (opts.ready) await page.waitForSelector(opts.ready, { state: 'visible' });
      problems.push(...(await check(page)).map((p) => ({ ...p, id: `${p.id} (${colorScheme})` })));
    } finally {
      await context.close();
    }
  }
  return problems;
}

async function check(page: Page): Promise<A11yProblem[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  // Page code is passed as strings: this project's TypeScript has no DOM types.
  const results = await page.evaluate<AxeResults>('axe.run(document)');
  const problems: A11yProblem[] = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  const sideways = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  if (sideways > 0)
    problems.push({
      id: 'horizontal-scroll',
      impact: 'serious',
      help: `The page is ${sideways}px wider than the screen`,
      targets: ['html'],
    });
  return problems;
}
