import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getChatLanguage } from '../../../src/i18n/chat-language-store.ts';
import { parseCatalog } from '../../../src/i18n/parse-catalog.ts';
import { ASSETS_DIR } from '../../../src/web/panel/static-assets.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { api, TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, signIn } from './browser.ts';

/**
 * The panel in Chinese, in `test/artifacts/panel/` (gitignored) like every panel screenshot. The
 * committed docs/panel-tickets.zh-CN.png (README "Languages") is rewritten only when asked:
 * `UPDATE_DOCS_SCREENSHOTS=1` (look at it before committing).
 */
const DOCS_SHOT = join(ARTIFACTS, '30-tickets-zh-CN.png');
const COMMITTED_SHOT = fileURLToPath(new URL('../../../docs/panel-tickets.zh-CN.png', import.meta.url));

/** The local chat's bot message answering `messageId`, once it is there. */
async function answerTo(app: TestApp, chat: string, messageId: string) {
  return waitFor(async () => {
    const { body } = await api(app, 'GET', `/local/messages?chat=${chat}`);
    // biome-ignore lint/suspicious/noExplicitAny: the conversation's JSON
    return body.items.find((m: any) => m.type === 'message' && m.from === 'bot' && m.replyTo === messageId);
  }, `the answer to ${messageId}`);
}

describe('issue 16: the panel in English and Chinese, with a switch it remembers', () => {
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
  // The browser is shared; the product, its key prefix and the signed-in page (a fresh English
  // browser context) are each test's own (issue 20): a test that needs a ticket opens it.
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    app = await startTestApp({ ADMIN_TOKEN: TOKEN, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' });
    const context = await browser.newContext({ viewport: { width: 1400, height: 800 }, locale: 'en-US' });
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

  /** A Chinese request in the panel's chat; the ticket it opened, from the API. */
  async function openTicket(): Promise<string> {
    const sent = await api(app, 'POST', '/local/messages', {
      text: '请给 acme/api 加一个健康检查接口',
      chat: 'panel',
    });
    expect(sent.status).toBeLessThan(300);
    return waitFor(
      async () => (await api(app, 'GET', '/tickets')).body.tickets[0]?.id as string,
      'the ticket',
    );
  }

  const nav = () => page.getByRole('navigation');

  it('an English browser gets English; pressing 中文 turns the page Chinese, and a reload keeps it', async () => {
    const ticketId = await openTicket();
    await page.goto(`${app.url}/panel/#/tickets`);
    await page.getByRole('heading', { name: 'Tickets', exact: true }).waitFor();
    expect(await nav().textContent()).toContain('Prompt settings');
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '工单', exact: true }).waitFor();
    expect(await nav().textContent()).toContain('Prompt 设置');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await expect.poll(() => page.getByRole('button', { name: `暂停 ${ticketId}` }).count()).toBe(1);
    await page.reload();
    await page.getByRole('heading', { name: '工单', exact: true }).waitFor();
    expect(await page.getByRole('columnheader', { name: '请求者' }).count()).toBe(1);
    await page.locator(`tr[data-ticket="${ticketId}"]`).waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: DOCS_SHOT });
    if (process.env.UPDATE_DOCS_SCREENSHOTS) copyFileSync(DOCS_SHOT, COMMITTED_SHOT);
  });

  it('the ticket page speaks Chinese too, and English comes back with the switch', async () => {
    const ticketId = await openTicket();
    await page.goto(`${app.url}/panel/#/tickets`);
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '工单', exact: true }).waitFor();
    await page.getByRole('link', { name: ticketId, exact: true }).click();
    await page.getByRole('heading', { name: '时间线' }).waitFor();
    expect(await page.getByRole('link', { name: '← 全部工单' }).count()).toBe(1);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.reload();
    await page.getByRole('link', { name: '← All tickets' }).waitFor();
  });

  it('a browser in Chinese starts in Chinese, sign-in page included', async () => {
    const context = await browser.newContext({ locale: 'zh-CN' });
    const zh = await context.newPage();
    zh.on('pageerror', (err) => errors.push(err.message));
    await zh.goto(`${app.url}/panel/`);
    await zh.getByLabel('管理员令牌').waitFor();
    expect(await zh.getByRole('button', { name: '登录' }).count()).toBe(1);
    await context.close();
  });
  it('the prompt settings, policy and versions pages are Chinese too', async () => {
    await page.goto(`${app.url}/panel/#/prompts`);
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: 'Prompt 设置', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: '保存', exact: true }).count()).toBe(1);
    await page.getByRole('tab', { name: '团队与技能' }).click();
    await page.getByRole('heading', { name: '团队段落' }).waitFor();
    await page.getByRole('link', { name: '策略' }).click();
    await page.getByRole('group', { name: '接受模式' }).waitFor();
    await page.getByRole('link', { name: '版本' }).click();
    await page.getByRole('button', { name: '恢复默认内容' }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Restore the defaults' }).waitFor();
    await page.getByRole('link', { name: 'Prompt settings' }).click();
    await page.getByRole('heading', { name: 'Team paragraphs' }).waitFor();
  });

  it('the Setup page is Chinese too; its chat-language field fixes a chat’s language, and the host’s next confirmation there is Chinese', async () => {
    const chat = `lang-${Date.now().toString(36)}`;
    const request = await api(app, 'POST', '/local/messages', { text: 'please add a health check', chat });
    const ack = await answerTo(app, chat, request.body.messageId);
    const ticket = ack.tickets[0] as string;
    expect(ticket).toBeTruthy();
    // Only an admin sets it, and only to a language the host has.
    const anonymous = await fetch(`${app.url}/api/chat-languages/${chat}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lang: 'zh-CN' }),
    });
    expect(anonymous.status).toBe(401);
    expect(await api(app, 'PUT', `/chat-languages/${chat}`, { lang: 'fr' })).toMatchObject({
      status: 422,
      body: { errors: [{ key: 'lang', code: 'invalid_lang' }] },
    });
    expect((await api(app, 'PUT', `/chat-languages/${chat}`, { lang: 7 })).status).toBe(400);
    expect(await getChatLanguage(app.ctx, chat)).toBeUndefined();

    await page.goto(`${app.url}/panel/#/setup`);
    // The page drawn first, so the switch's redraw is the last one.
    await page.locator('#chat-repos-list').waitFor();
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '接入设置', exact: true }).waitFor();
    await page.getByRole('columnheader', { name: '用途' }).waitFor();
    // None of the Setup page's English words is left on it.
    const en = parseCatalog(readFileSync(join(ASSETS_DIR, 'i18n', 'en.md'), 'utf8')).texts;
    const zh = parseCatalog(readFileSync(join(ASSETS_DIR, 'i18n', 'zh-CN.md'), 'utf8')).texts;
    const shown = (await page.locator('#view').textContent()) ?? '';
    const english = [...en]
      .filter(([k, v]) => k.startsWith('setup.') && !v.includes('{') && !(zh.get(k) ?? '').includes(v))
      .map(([, v]) => v)
      .filter((v) => shown.includes(v));
    expect(english).toEqual([]);
    expect(shown).toContain('克隆和拉取仓库');

    await page.getByLabel('聊天 ID').fill(chat);
    await page.getByLabel('聊天语言').selectOption('zh-CN');
    await page.getByRole('button', { name: '保存聊天语言' }).click();
    await page.locator(`#chat-repos-list tr[data-chat="${chat}"] td[data-lang="zh-CN"]`).waitFor();
    expect(await getChatLanguage(app.ctx, chat)).toBe('zh-CN');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, '31-setup-zh-CN.png'), fullPage: true });

    // An English command in that chat now gets a Chinese confirmation.
    const pause = await api(app, 'POST', '/local/messages', { text: '/pause', chat, replyTo: ack.id });
    expect((await answerTo(app, chat, pause.body.messageId)).text).toBe(
      `已暂停 ${ticket}；在有人说“继续”（/resume）之前，不会再有任何动作。`,
    );

    // Back to automatic: the row goes, and the next English command is answered in English.
    await page.getByLabel('聊天语言').selectOption('auto');
    await page.getByRole('button', { name: '保存聊天语言' }).click();
    await page.locator(`#chat-repos-list tr[data-chat="${chat}"]`).waitFor({ state: 'detached' });
    expect(await getChatLanguage(app.ctx, chat)).toBeUndefined();
    const resume = await api(app, 'POST', '/local/messages', { text: '/resume', chat, replyTo: ack.id });
    expect((await answerTo(app, chat, resume.body.messageId)).text).toBe(`Resumed ${ticket}.`);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Setup', exact: true }).waitFor();
  }, 60_000);
});
