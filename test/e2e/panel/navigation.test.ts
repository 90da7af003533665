import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseCatalog } from '../../../src/i18n/parse-catalog.ts';
import { ASSETS_DIR } from '../../../src/web/panel/static-assets.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { TOKEN } from './api.ts';
import { launchChromium, signIn } from './browser.ts';

/**
 * Only the newest navigation shows (issue 16): a page whose API answer comes late, after the
 * person already moved on to another page or language, never draws over the page they asked for.
 * The browser holds one API answer back until the test lets it go.
 */
const catalog = (lang: string) =>
  parseCatalog(readFileSync(join(ASSETS_DIR, 'i18n', `${lang}.md`), 'utf8')).texts;
const [EN, ZH] = [catalog('en'), catalog('zh-CN')];
const en = (key: string) => EN.get(key) ?? key;
const zh = (key: string) => ZH.get(key) ?? key;

describe('panel: a slow page never draws over a newer one', () => {
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
  // The browser is shared; the product, its key prefix and the signed-in page are each test's own.
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    const context = await browser.newContext({ viewport: { width: 1400, height: 800 }, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, app.url, TOKEN);
  }, 60_000);
  afterEach(async () => {
    await page?.context().close();
    await app?.close();
  });

  /**
   * Holds the first `GET <path>` until `release` is called, which waits until the page has read
   * that answer and had time to draw.
   */
  async function holdFirstAnswer(path: string) {
    let letGo = () => {};
    const released = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let seen = 0;
    await page.route(`**${path}`, async (route) => {
      seen += 1;
      if (seen === 1) await released;
      await route.continue();
    });
    return {
      held: () => expect.poll(() => seen).toBeGreaterThanOrEqual(1),
      release: async () => {
        const answered = page.waitForResponse((r: Response) => new URL(r.url()).pathname === path);
        letGo();
        await (await answered).finished();
        // Proving something did not happen: the late render has had its frames.
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 300))),
        );
      },
    };
  }

  it('the tickets list answering after the person went on to Queues leaves Queues showing', async () => {
    const slow = await holdFirstAnswer('/api/tickets');
    await page.getByRole('link', { name: 'Tickets', exact: true }).click();
    await slow.held();
    await page.getByRole('link', { name: 'Queues', exact: true }).click();
    await page.getByRole('heading', { name: 'Queues', exact: true }).waitFor();

    await slow.release();
    expect(await page.getByRole('heading', { name: 'Tickets', exact: true }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Queues', exact: true }).count()).toBe(1);
    expect(await page.locator('#page').getAttribute('aria-busy')).toBe('false');
    expect(await page.locator('#nav a[aria-current="page"]').getAttribute('data-page')).toBe('queues');
  });

  it('the English Setup page answering after the switch to 中文 leaves the page all Chinese', async () => {
    // The English drawing builds its GitHub App section, then waits for the chats' repositories.
    const slow = await holdFirstAnswer('/api/chat-repos');
    await page.getByRole('link', { name: 'Setup', exact: true }).click();
    await slow.held();
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '接入设置', exact: true }).waitFor();
    await page.getByLabel(zh('setup.app.name'), { exact: true }).waitFor();

    await slow.release();
    expect(await page.getByLabel(en('setup.app.name'), { exact: true }).count()).toBe(0);
    expect(await page.getByLabel(zh('setup.app.name'), { exact: true }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: '接入设置', exact: true }).count()).toBe(1);
    expect(await page.locator('#page').getAttribute('aria-busy')).toBe('false');
  });

  it('English pressed while the Chinese words are still loading wins: the page stays English', async () => {
    await page.getByRole('link', { name: 'Tickets', exact: true }).click();
    await page.getByRole('heading', { name: 'Tickets', exact: true }).waitFor();
    const slow = await holdFirstAnswer('/panel/assets/i18n/zh-CN.md');
    await page.getByRole('button', { name: '中文' }).click();
    await slow.held();
    await page.getByRole('button', { name: 'English' }).click();

    await slow.release();
    await page.locator('#page[aria-busy="false"]').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('heading', { name: 'Tickets', exact: true }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: '工单', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await page.getByRole('heading', { name: 'Tickets', exact: true }).waitFor();
  });
});
