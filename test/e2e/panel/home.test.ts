import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { type GitHubWorld, startGitHubWorld } from '../../faults/github-world.ts';
import { waitFor } from '../../kit/app.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, shoot, signIn } from './browser.ts';

/** The README tour's picture; rewritten only when `UPDATE_DOCS_SCREENSHOTS` is set. */
const DOCS_SHOT = join(import.meta.dirname, '..', '..', '..', 'docs', 'panel-home.png');

/**
 * Issue 33 item 1: Home is where a sign-in lands, in headless Chromium against the real server
 * and workers, a fake GitHub that sends real signed webhooks and refuses one comment, and a
 * scripted model. `SANDBOX=none` gives the doctor a problem to show with its fix.
 */
describe('issue 33 item 1: the panel’s Home', () => {
  let w: GitHubWorld;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    expect(errors).toEqual([]);
  });
  beforeEach(async () => {
    w = await startGitHubWorld({ ADMIN_TOKEN: TOKEN, SANDBOX: 'none' });
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
  }, 60_000);
  afterEach(async () => {
    await page?.context().close();
    await w?.close();
  });

  /** A comment of the ticket that GitHub refuses for good (on an issue nothing else writes to). */
  async function refusedDelivery(ticketId: string): Promise<void> {
    w.gh.failNext({ method: 'POST', path: /\/issues\/99\/comments$/, status: 422 });
    const key = `home-e2e:${ticketId}:notice`;
    await enqueueEffect(w.app.ctx, {
      key,
      ticketId,
      effect: { op: 'github.comment', repo: 'acme/widgets', number: 99, body: 'Ready for review.' },
    });
    await waitFor(
      async () => (await w.app.ctx.queues.outbox.getJob(outboxJobId(key)))?.finishedOn !== undefined,
      'the refused delivery to fail',
    );
  }

  it('a sign-in lands on Home: channels, the model, a doctor finding with its fix, a failed delivery linking to its ticket, tickets by state — live', {
    timeout: 90_000,
  }, async () => {
    const ticketId = await w.open('ada', '@switchyard-bot please fix the login redirect');
    await refusedDelivery(ticketId);
    const state = (await getTicket(w.app.ctx, ticketId))?.state ?? '';

    await signIn(page, w.app.url, TOKEN);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');

    const github = page.locator('[data-home="channels"] tr[data-channel="github"]');
    await github.getByText('reachable', { exact: true }).waitFor();
    expect(await github.locator('td').nth(0).textContent()).toBe('on');
    expect(await github.locator('td.num').textContent()).toBe('1');
    expect(await page.locator('tr[data-channel="feishu"] td').nth(0).textContent()).toBe('off');
    await page.locator('tr[data-channel="local"]').getByText('never').waitFor();

    const model = page.locator('[data-home="model"]');
    await model.locator('[data-model="ok"]', { hasText: 'answered' }).waitFor();
    await model.getByText(/Last request: \d+ ms/).waitFor();

    const sandbox = page.locator('[data-home="doctor"] li[data-finding="sandbox"]');
    await sandbox.getByText('SANDBOX=none: repository code runs unconfined').waitFor();
    await sandbox
      .locator('.home-fix', { hasText: 'Fix: install bubblewrap and set SANDBOX=bwrap' })
      .waitFor();

    await page
      .locator(`[data-home="tickets"] li[data-state="${state}"] .home-count`, { hasText: '1' })
      .waitFor();
    const deliveries = page.locator('[data-home="deliveries"]');
    await deliveries.getByText('1 failed for good, 0 waiting to be retried').waitFor();
    const troubled = deliveries.locator(`li[data-ticket="${ticketId}"]`);
    await troubled.getByText('1 failed').waitFor();
    await page.locator('[data-home="queues"] tr[data-queue="outbox"] td.bad', { hasText: '1' }).waitFor();
    // Issue 49 item 3: the delivery failed for good is under "Needs you", with GitHub's error.
    const need = page.locator(`[data-home="needs"] li[data-need="delivery"][data-ticket="${ticketId}"]`);
    await need.getByRole('button', { name: 'Retry (1)' }).waitFor();
    await shoot(page, '50-home', { fullPage: true });
    if (process.env.UPDATE_DOCS_SCREENSHOTS) copyFileSync(join(ARTIFACTS, '50-home.png'), DOCS_SHOT);

    // Live: a second signed webhook shows up without a reload.
    await w.comment('ada', '@switchyard-bot please also fix the logout link', 8);
    await github.locator('td.num', { hasText: '2' }).waitFor({ timeout: 20_000 });

    // The failed delivery links to its ticket, where it can be retried.
    await troubled.getByRole('link', { name: ticketId }).click();
    await page.waitForURL(`${w.app.url}/panel/#/tickets/${ticketId}`);
    await page.locator(`.delivery-trouble[data-delivery="home-e2e:${ticketId}:notice"]`).waitFor();

    // Retry from Home: GitHub takes the comment this time, and the item goes.
    await page.goto(`${w.app.url}/panel/#/home`);
    await need.getByRole('button', { name: 'Retry (1)' }).click();
    await need.waitFor({ state: 'detached', timeout: 20_000 });
  });
});
