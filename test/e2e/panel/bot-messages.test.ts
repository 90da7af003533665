import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';
import { type FakeLlm, type RecordedRequest, startFakeLlm, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, inputOf, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { api, TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, shoot, signIn } from './browser.ts';

/** Copies a shot over its committed picture in docs/ — only when `UPDATE_DOCS_SCREENSHOTS=1` asks (look at it first). */
const toDocs = (shot: string, doc: string) =>
  process.env.UPDATE_DOCS_SCREENSHOTS === '1'
    ? copyFileSync(join(ARTIFACTS, `${shot}.png`), join(import.meta.dirname, '..', '..', '..', 'docs', doc))
    : undefined;

/** What a hostile (or prompt-injected) bot reply could say: markup and a script link. */
const HOSTILE = [
  '### 🔄 Working on it',
  '**Now:** reading `src/app.ts`',
  '- first <img src=x onerror="window.__owned=1">',
  '- [click me](javascript:window.__owned=2) and [the PR](https://github.com/acme/api/pull/7)',
].join('\n');

/** The executor: the hostile reply and a question with choices; an answer ends the work. */
function executor(req: RecordedRequest) {
  if (/Postgres|SQLite/.test(inputOf(req))) return text('Noted.');
  const [to] = cardsIn(req);
  if (!to) return text('Nothing new.');
  return toolCalls(
    ['reply', { to, text: HOSTILE }],
    [
      'report',
      {
        status: 'blocked',
        summary: 'Waiting for **one** answer.',
        human_action: {
          question: 'Which database should the health check ping?',
          choices: ['Postgres', 'SQLite'],
        },
      },
    ],
  );
}

/**
 * Try it as Feishu shows the bot (issue 33): its Markdown rendered safely, a question's choices as
 * buttons that answer it, and the ticket page's failed delivery sent again by Retry, once.
 */
describe('panel: the bot’s messages like Feishu, and retrying a failed delivery', () => {
  let llm: FakeLlm;
  let feishu: FakeFeishu;
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
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor }));
    feishu = await startFakeFeishu();
    app = await startTestApp({
      ADMIN_TOKEN: TOKEN,
      LLM_BASE_URL: llm.baseURL,
      LLM_API_KEY: 'k',
      FEISHU_APP_ID: feishu.appId,
      FEISHU_APP_SECRET: feishu.appSecret,
      FEISHU_DOMAIN: feishu.url,
      FEISHU_VERIFICATION_TOKEN: 'verify-token',
      FEISHU_ENCRYPT_KEY: 'test-encrypt-key',
      FEISHU_EVENT_MODE: 'http',
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await signIn(page, app.url, TOKEN);
  }, 60_000);
  afterEach(async () => {
    await page?.context().close();
    await app?.close();
    await feishu?.close();
    await llm?.close();
  });

  /** Sends a request in Try it and waits for the bot's question under it; the ticket's id. */
  async function ask(): Promise<string> {
    await page.getByRole('link', { name: 'Try it' }).click();
    await page.getByLabel('Message').fill('Please add a health check endpoint to acme/api 🙂');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('li.from-bot', { hasText: 'Which database' }).waitFor({ timeout: 20_000 });
    const side = page.locator('.side-ticket').first();
    await side.waitFor();
    return (await side.getAttribute('data-ticket')) ?? '';
  }

  it('renders the bot’s Markdown as Feishu does, and markup or a javascript: link in it stays inert', async () => {
    await ask();
    const reply = page.locator('li.from-bot', { hasText: 'Working on it' });
    // `###` under the page's own headings: a heading a screen reader can find.
    await reply.getByRole('heading', { name: '🔄 Working on it' }).waitFor();
    await reply.locator('strong', { hasText: 'Now:' }).waitFor();
    await reply.locator('code', { hasText: 'src/app.ts' }).waitFor();
    expect(await reply.locator('.md li').count()).toBe(2);
    // The <img> is text a person can read, never an element; the script link is no link.
    expect(await reply.locator('img').count()).toBe(0);
    await reply.getByText('<img src=x onerror="window.__owned=1">').waitFor();
    const hrefs = await reply.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['https://github.com/acme/api/pull/7']);
    await reply.getByText('click me (javascript:window.__owned=2)').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __owned?: number }).__owned)).toBeUndefined();
    await shoot(page, '11-try-it-markdown');
  });

  it('a question’s choices are buttons; a click answers it as a typed reply would', async () => {
    const ticketId = await ask();
    const question = page.locator('li.from-bot', { hasText: 'Which database' });
    const choices = question.getByRole('group', { name: 'Answer with one of the choices' });
    await choices.getByRole('button', { name: 'Postgres' }).waitFor();
    await shoot(page, '12-try-it-choices');
    toDocs('12-try-it-choices', 'panel-try-it.png');
    await choices.getByRole('button', { name: 'Postgres' }).click();
    // The answer is the person's reply to the question, and the ticket takes it as a card.
    await question.locator('.replies li.from-person', { hasText: 'Postgres' }).waitFor();
    await waitFor(async () => {
      const { cards } = (await api(app, 'GET', `/tickets/${ticketId}`)).body;
      return cards.some((c: { card: { excerpt: string } | null }) => c.card?.excerpt === 'Postgres');
    }, 'the answer attached to the ticket');
    // Answered: the choices are not offered again.
    await choices.waitFor({ state: 'detached' });
  });

  it('people by name where known; a Feishu open_id without a name shortened, the full id in its title', async () => {
    // The panel's own module, as the page loads it (a string: vitest would rewrite an import()).
    const shown = await page.evaluate(`(async () => {
      const { person } = await import('/panel/assets/js/pages/ticket-bits.js');
      const look = (p) => {
        const el = person(p);
        return { text: el.textContent, title: el.getAttribute('title') };
      };
      const id = 'ou_7d8a6e6df7621556ce0d21922b676706';
      return [look({ id: 'octocat', name: 'octocat' }), look({ id, name: 'Ada Lovelace' }), look({ id })];
    })()`);
    expect(shown).toEqual([
      { text: 'octocat', title: null },
      { text: 'Ada Lovelace', title: 'ou_7d8a6e6df7621556ce0d21922b676706' },
      { text: 'ou_7d8a…6706', title: 'ou_7d8a6e6df7621556ce0d21922b676706' },
    ]);
  });

  it('the ticket page shows a failed delivery with its error; Retry sends it once', async () => {
    const ticketId = await ask();
    // A Feishu message of the ticket that Feishu refuses for good (a permanent 400).
    feishu.fail(1, { status: 400, code: 230002, msg: 'Bot/User can NOT be out of the chat.' }, /messages/);
    const key = `test:${ticketId}:notice`;
    await enqueueEffect(app.ctx, {
      key,
      ticketId,
      effect: { op: 'feishu.send', chatId: 'oc_team', text: 'The health check is ready for review.' },
    });
    await waitFor(
      async () => (await app.ctx.queues.outbox.getJob(outboxJobId(key)))?.finishedOn !== undefined,
      'the delivery to fail',
    );
    const sentBefore = feishu.messages.filter((m) => m.content.includes('ready for review')).length;
    expect(sentBefore).toBe(0);

    await page.goto(`${app.url}/panel/#/tickets/${ticketId}`);
    const row = page.locator(`.delivery-trouble[data-delivery="${key}"]`);
    await row.locator('.badge', { hasText: 'failed' }).waitFor();
    await row.locator('.delivery-error', { hasText: 'can NOT be out of the chat' }).waitFor();
    // Internals are folded: the effect keys sit behind "Details".
    await expect(page.locator(`li[data-outbox]`).first().isVisible()).resolves.toBe(false);
    await shoot(page, '13-ticket-failed-delivery', { fullPage: true });
    toDocs('13-ticket-failed-delivery', 'panel-ticket.png');

    await row.getByRole('button', { name: 'Retry' }).click();
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    await waitFor(
      async () => feishu.messages.some((m) => m.content.includes('ready for review')),
      'the retried delivery',
    );
    // Once: a second retry finds it sent and sends nothing.
    const again = await api(app, 'POST', `/tickets/${ticketId}/deliveries/retry`, { key });
    expect(again).toMatchObject({ status: 409, body: { code: 'already_sent' } });
    expect(feishu.messages.filter((m) => m.content.includes('ready for review'))).toHaveLength(1);
    await page.reload();
    await page.locator(`li[data-outbox="${key}"] .badge`, { hasText: 'sent' }).waitFor({ state: 'attached' });
  });
});
