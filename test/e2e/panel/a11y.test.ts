import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { openQuestion } from '../../../src/status/status-facts.ts';
import { addReport } from '../../../src/tickets/reports.ts';
import { createTicket, setTicketState } from '../../../src/tickets/ticket-store.ts';
import { localMessage, send } from '../../integration/routing/helpers.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { TOKEN } from './api.ts';
import { launchChromium, shoot, signIn } from './browser.ts';

/** axe-core's browser bundle (a dev dependency, 4.14.1), injected into each page as a script. */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PAGES = [
  'home',
  'prompts',
  'versions',
  'policy',
  'tickets',
  'ticket',
  'events',
  'queues',
  'charts',
  'eval',
  'try',
  'setup',
];
const WIDTHS = [1400, 390] as const;

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe's serious and critical findings, and skipped heading levels, on the page as shown now (`rules`: only those). */
async function axeFindings(page: Page, rules?: string[]): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async (only) => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is the injected bundle's global
    const axe = (window as any).axe;
    const run = await axe.run(document, only ? { runOnly: { type: 'rule', values: only } } : {});
    return (
      run.violations
        // Serious and critical ones, and a heading that skips a level (moderate, but issue 49 names it).
        .filter(
          (v: { id: string; impact: string }) =>
            v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order',
        )
        .map((v: { id: string; impact: string; help: string; nodes: { target: string[] }[] }) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
        }))
    );
  }, rules);
}

/**
 * Issue 49 item 6: no serious or critical axe-core finding on any page of the panel, in
 * Chromium at 1400 and 390 px; in dark mode (`prefers-color-scheme`, issue 49 item 4) the
 * colours keep their contrast (axe's `color-contrast`, 4.5:1 for text); no page scrolls sideways.
 */
describe('issue 49 item 6: every panel page passes axe-core', () => {
  let app: TestApp;
  let browser: Browser;
  let ticket = '';
  beforeAll(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    browser = await launchChromium();
    const cardId = await send(app.ctx, localMessage('Please rename the config module', { user: 'ada' }));
    ticket = (await createTicket(app.ctx, (await loadCard(app.ctx, cardId))!, { why: 'explicit request' }))
      .id;
    await setTicketState(app.ctx, ticket, 'waiting');
    await addReport(app.ctx, ticket, {
      status: 'working',
      summary: 'renamed **config** to `settings`',
      at: 4,
    });
    await openQuestion(app.ctx, ticket, {
      question: 'Keep an alias?',
      choices: ['yes', 'no'],
      turnId: 't',
      at: 5,
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  for (const scheme of ['light', 'dark'] as const)
    for (const width of WIDTHS)
      it(`${scheme}, ${width} px: no serious finding on any page`, { timeout: 120_000 }, async () => {
        const context = await browser.newContext({
          viewport: { width: 1400, height: 900 },
          locale: 'en-US',
          colorScheme: scheme,
          // The panel allows only its own scripts: axe is put in by the test, past that policy.
          bypassCSP: true,
        });
        context.setDefaultTimeout(15_000);
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(err.message));
        await signIn(page, app.url, TOKEN);
        // Signed in wide (the navigation shows), then looked at in the width under test.
        await page.setViewportSize({ width, height: 900 });
        const found: Record<string, Finding[]> = {};
        for (const name of PAGES) {
          await page.goto(`${app.url}/panel/#/${name === 'ticket' ? `tickets/${ticket}` : name}`);
          await page.locator('#page h1').first().waitFor();
          await page.locator('#page[aria-busy="false"]').waitFor();
          // Dark mode changes colours only: its contrast is what is checked there.
          const findings = await axeFindings(page, scheme === 'dark' ? ['color-contrast'] : undefined);
          // Nothing scrolls sideways: a wide table scrolls within itself (issue 49's check at 390 px).
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (wide > 0)
            findings.push({ id: 'page-scrolls-sideways', impact: null, help: `${wide} px`, nodes: [] });
          if (findings.length) found[name] = findings;
          await shoot(page, `a11y-${scheme}-${width}-${name}`, { fullPage: true });
        }
        expect(found).toEqual({});
        expect(errors).toEqual([]);
        await context.close();
      });
});
