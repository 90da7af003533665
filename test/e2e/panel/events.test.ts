import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startTestApp, waitFor } from '../../kit/app.ts';
import { startFakeGitHub } from '../../kit/fake-github.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { api, TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, shoot, signIn } from './browser.ts';

/** The committed picture in docs/panel.md; rewritten only when `UPDATE_DOCS_SCREENSHOTS=1` asks. */
const DOCS_SHOT = join(import.meta.dirname, '..', '..', '..', 'docs', 'panel-events.png');
const SECRET = 'events-e2e-webhook-secret';

it('issue 33 item 2: the events inbox shows the refused event with its reason, links the opened one, and filters by fate', {
  timeout: 120_000,
}, async () => {
  const gh = await startFakeGitHub({ botLogin: 'switchyard-bot', token: 'ghp_test' });
  const app = await startTestApp({
    ADMIN_TOKEN: TOKEN,
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_TOKEN: 'ghp_test',
    GITHUB_API_URL: gh.url,
    GITHUB_BOT_LOGIN: 'switchyard-bot',
  });
  const browser = await launchChromium();
  const problems: string[] = [];
  const send = (event: string, payload: unknown, deliveryId?: string) =>
    sendGitHubEvent(app.url, event, payload, { secret: SECRET, ...(deliveryId ? { deliveryId } : {}) });
  try {
    // A signed comment whose permission check fails: before issue 33 it left no trace in the panel.
    gh.failNext({ method: 'GET', path: /\/collaborators\/eve\/permission$/, status: 500, times: 20 });
    await send('issue_comment', P.mentionComment({ author: 'eve', number: 40, commentId: 4001 }));
    await send('issue_comment', P.mentionComment({ author: 'ada', number: 41, commentId: 4101 }));
    await send('issue_comment', { ...P.mentionComment({ commentId: 4102 }), action: 'deleted' });
    const own = P.mentionComment({ author: 'switchyard-bot', body: 'On it', commentId: 4103 });
    await send('issue_comment', own, 'e2e-own');
    await send('issue_comment', own, 'e2e-own');
    const settled = await waitFor(async () => {
      const { body } = await api(app, 'GET', '/events');
      const fates = new Set(body.events.map((e: { fate: string }) => e.fate));
      return ['refused', 'opened', 'ignored', 'duplicate'].every((f) => fates.has(f))
        ? body.events
        : undefined;
    }, 'every fate in the inbox');
    const ticket = settled.find((e: { fate: string }) => e.fate === 'opened').tickets[0];

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(err.message));
    await signIn(page, app.url, TOKEN);
    page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
    await page.getByRole('navigation', { name: 'Panel pages' }).getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();

    const refused = page.locator('tr[data-fate="refused"]');
    await refused.waitFor();
    await expect(refused.textContent()).resolves.toContain(
      'the GitHub permission check for eve on acme/widgets failed',
    );
    await expect(refused.textContent()).resolves.toContain('eve');
    const opened = page.locator('tr[data-fate="opened"]');
    await expect(opened.getByRole('link', { name: ticket }).getAttribute('href')).resolves.toBe(
      `#/tickets/${ticket}`,
    );
    await shoot(page, 'events');
    if (process.env.UPDATE_DOCS_SCREENSHOTS === '1') copyFileSync(join(ARTIFACTS, 'events.png'), DOCS_SHOT);

    // The fate filter: only refused rows remain, and the person filter narrows further.
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(3);
    await page.getByLabel('Fate').selectOption('refused');
    await waitFor(
      async () => ((await page.locator('tbody tr').count()) === 1 ? true : undefined),
      'one refused row',
    );
    await expect(page.locator('tbody tr').getAttribute('data-fate')).resolves.toBe('refused');
    await page.getByLabel('Fate').selectOption('');
    await page.getByLabel('Person').fill('switchyard-bot');
    await page.getByRole('button', { name: 'Filter' }).click();
    await waitFor(async () => {
      const fates = await page
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-fate')));
      return fates.length === 2 && fates.includes('duplicate') && fates.includes('ignored')
        ? true
        : undefined;
    }, "the bot's two entries");
    await page
      .locator('tbody tr a.ticket-link')
      .count()
      .then((n) => expect(n).toBe(0));
    await page.getByLabel('Person').fill('nobody');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No events match.').waitFor();
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
    await app.close();
    await gh.close();
  }
});
