import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { api, TOKEN } from './api.ts';
import { launchChromium, shoot, signIn } from './browser.ts';

/**
 * The panel's working pages in headless Chromium against the real server, workers and a scripted
 * model: Try it (R-A4 through the local channel), tickets with pause (R-D2), policy, queues.
 */
describe('panel: try it, tickets, policy and queues', () => {
  let llm: FakeLlm;
  let app: TestApp;
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
  // The browser is shared; the product, its key prefix and the signed-in page are each test's own
  // (issue 20): a test that needs a ticket opens it itself.
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    app = await startTestApp({ ADMIN_TOKEN: TOKEN, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, app.url, TOKEN);
  }, 60_000);
  afterEach(async () => {
    await page?.context().close();
    await app?.close();
    await llm?.close();
  });

  /** Sends a request in Try it and waits for its reply; the ticket it opened, from the page. */
  async function openTicketInTryIt(): Promise<string> {
    await page.getByRole('link', { name: 'Try it' }).click();
    await page.getByLabel('Message').fill('Please add a health check endpoint to acme/api');
    await page.getByRole('button', { name: 'Send' }).click();
    const mine = page
      .locator('.thread > li.from-person')
      .filter({ hasText: 'Please add a health check endpoint' });
    await mine.waitFor();
    const reply = mine.locator('.replies li.from-bot').filter({ hasText: 'On it:' });
    await reply.waitFor({ timeout: 20_000 });
    await mine.locator('.reaction').first().waitFor();
    const side = page.locator('.side-ticket').first();
    await side.waitFor();
    return (await side.getAttribute('data-ticket')) ?? '';
  }

  it('a message typed in Try it opens a ticket; the reaction and the reply show threaded under it', async () => {
    const ticketId = await openTicketInTryIt();
    expect(ticketId).not.toBe('');
    const { tickets } = (await api(app, 'GET', '/tickets')).body;
    expect(tickets.map((t: { id: string }) => t.id)).toContain(ticketId);
    await shoot(page, '07-try-it');
  });

  it('R-D2: replying /pause to the bot pauses the ticket; Resume lifts it', async () => {
    const ticketId = await openTicketInTryIt();
    const botReply = page.locator('li.from-bot').first();
    await botReply.getByRole('button', { name: 'Reply' }).click();
    await page.getByText('Replying to:').waitFor();
    await page.getByLabel('Message').fill('/pause');
    await page.keyboard.press('Enter');
    await page.locator('.side-ticket .paused').waitFor({ timeout: 20_000 });
    expect((await api(app, 'GET', `/tickets/${ticketId}`)).body.pause).toMatchObject({ via: 'message' });
    await page
      .locator('.side-ticket')
      .getByRole('button', { name: `Resume ${ticketId}` })
      .click();
    await waitFor(
      async () => (await api(app, 'GET', `/tickets/${ticketId}`)).body.pause === null,
      'the resume',
    );
  });

  it('R-D2: Pause on the ticket page is the API’s pause, with who and when', async () => {
    const ticketId = await openTicketInTryIt();
    await page.getByRole('link', { name: 'Tickets', exact: true }).click();
    await page.locator(`tr[data-ticket="${ticketId}"]`).waitFor();
    await shoot(page, '08-tickets');
    await page.getByRole('link', { name: ticketId }).click();
    // Issue 49: the request is the first item of the ticket's timeline, its author by name.
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page
      .locator('ol.timeline > li[data-kind="message"]', { hasText: 'Please add a health check endpoint' })
      .first()
      .waitFor();
    await page.getByRole('button', { name: `Pause ${ticketId}` }).click();
    await page.getByRole('button', { name: `Resume ${ticketId}` }).waitFor();
    const detail = (await api(app, 'GET', `/tickets/${ticketId}`)).body;
    expect(detail.pause).toMatchObject({ by: 'ada', via: 'api' });
    // The header's pause line (the trajectory below also lists the pause as a step).
    await page.getByText('Paused by ada').first().waitFor();
    // Issue 12: the ticket's model usage with the prompt tokens its provider served from cache,
    // among the internals (issue 49: folded below the timeline).
    expect(detail.usage.requests).toBeGreaterThan(0);
    await page.locator('[data-internals] > summary').click();
    await page
      .locator('[data-usage="ticket"]', {
        hasText: `${detail.usage.promptTokens} prompt tokens, ${detail.usage.cacheHitTokens} from cache`,
      })
      .waitFor();
    // Issue 9: the page shows the same live status as the status card and comment.
    expect(detail.statusText).toContain('**Paused by:** ada');
    // Rendered as the card shows it: the Markdown's bold is bold, never raw asterisks.
    await page.locator('.status-text strong', { hasText: 'Paused by:' }).waitFor();
    await page.locator('.status-text', { hasText: 'Paused by: ada' }).waitFor();
    await shoot(page, '08-ticket-detail', { fullPage: true });
  });

  it('edits the policy: mode and a rule, saved as a new revision', async () => {
    // The panel's own navigation: the page a fresh sign-in lands on links to the policy too.
    await page.getByRole('navigation', { name: 'Panel pages' }).getByRole('link', { name: 'Policy' }).click();
    await page.getByLabel(/Inferred too/).check();
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Id', { exact: true }).fill('flaky-tests');
    await page.getByLabel('Name', { exact: true }).fill('Flaky tests');
    await page.getByLabel('Instruction (one line)').fill('Fix a test that failed on main twice this week.');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByText('Policy saved as revision 1').waitFor();
    const policy = (await api(app, 'GET', '/policy')).body;
    expect(policy).toMatchObject({
      revision: 1,
      mode: 'inferred',
      rules: [{ id: 'flaky-tests', enabled: true }],
    });
    await shoot(page, '09-policy');
  });

  it('shows job counts per queue', async () => {
    await page.getByRole('link', { name: 'Queues' }).click();
    for (const q of ['route', 'main', 'executor', 'outbox'])
      await page.locator(`tr[data-queue="${q}"]`).waitFor();
    await shoot(page, '10-queues');
  });
});
