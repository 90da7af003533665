import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { api, TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, signIn } from './browser.ts';

/**
 * The panel in Chinese, in `test/artifacts/panel/` (gitignored) like every panel screenshot: a
 * test never rewrites the committed docs/panel-tickets.zh-CN.png (README "Languages"); copy it
 * there by hand when the page changes.
 */
const DOCS_SHOT = join(ARTIFACTS, '30-tickets-zh-CN.png');

describe('issue 16: the panel in English and Chinese, with a switch it remembers', () => {
  let llm: FakeLlm;
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let ticketId = '';
  beforeAll(async () => {
    browser = await launchChromium();
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    app = await startTestApp({ ADMIN_TOKEN: TOKEN, LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' });
    const sent = await api(app, 'POST', '/local/messages', {
      text: '请给 acme/api 加一个健康检查接口',
      chat: 'panel',
    });
    expect(sent.status).toBeLessThan(300);
    ticketId = await waitFor(
      async () => (await api(app, 'GET', '/tickets')).body.tickets[0]?.id,
      'the ticket',
    );
    const context = await browser.newContext({ viewport: { width: 1400, height: 800 }, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, app.url, TOKEN);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await llm?.close();
    expect(errors).toEqual([]);
  });

  const nav = () => page.getByRole('navigation');

  it('an English browser gets English; pressing 中文 turns the page Chinese, and a reload keeps it', async () => {
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
  });

  it('the ticket page speaks Chinese too, and English comes back with the switch', async () => {
    await page.getByRole('link', { name: ticketId, exact: true }).click();
    await page.getByRole('heading', { name: '会话线程' }).waitFor();
    expect(await page.getByRole('link', { name: '← 全部工单' }).count()).toBe(1);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Threads' }).waitFor();
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
});
