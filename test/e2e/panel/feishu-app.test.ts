import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { decodeQR } from 'qr/decode.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FEISHU_CALLBACKS, FEISHU_EVENTS, FEISHU_SCOPES } from '../../../src/channels/feishu/app-needs.ts';
import { parseEnvFile } from '../../../src/env-file.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';
import { TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, shoot, signIn } from './browser.ts';

/** The committed picture in docs/feishu-setup.md; rewritten only when `UPDATE_DOCS_SCREENSHOTS=1` asks. */
const DOCS_SHOT = join(import.meta.dirname, '..', '..', '..', 'docs', 'panel-feishu-app.png');

/**
 * What a phone's camera reads off the screen: the QR code as Chromium painted it (a screenshot of
 * the element), its pixels taken back in the page, decoded here.
 */
async function readQrOnScreen(page: Page): Promise<string> {
  const png = (await page.locator('#feishu-app-qr').screenshot()).toString('base64');
  const image = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const g = canvas.getContext('2d');
    if (!g) throw new Error('no 2d context');
    g.drawImage(img, 0, 0);
    const data = g.getImageData(0, 0, canvas.width, canvas.height).data;
    return { width: canvas.width, height: canvas.height, data: Array.from(data) };
  }, png);
  return decodeQR({ width: image.width, height: image.height, data: Uint8Array.from(image.data) });
}

/**
 * Issue 33 item 6: the Setup page's "Create a Feishu app by scanning" in headless Chromium against
 * the fake Feishu: the QR code on the screen is read as a phone would, the person confirms on the
 * phone, and the page turns the answer into `.env` lines.
 */
describe('panel: a Feishu app in one scan (issue 33 item 6)', () => {
  let fake: FakeFeishu;
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
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
    fake = await startFakeFeishu();
    fake.registration.settings.intervalSeconds = 1;
    app = await startTestApp({ ADMIN_TOKEN: TOKEN, FEISHU_DOMAIN: fake.url }, { workers: false });
    context = await browser.newContext({ viewport: { width: 1280, height: 1040 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, app.url, TOKEN);
    await page.goto(`${app.url}/panel/#/setup`);
  }, 60_000);
  afterEach(async () => {
    await context?.close();
    await app?.close();
    await fake?.close();
  });

  it('the page shows a QR code a phone reads; confirmed there, the page shows the .env lines', async () => {
    const needs = page.locator('#feishu-app-needs');
    await needs.waitFor();
    for (const item of [...FEISHU_SCOPES.map((s) => s.scope), ...FEISHU_EVENTS, ...FEISHU_CALLBACKS])
      expect(await needs.getByText(item, { exact: true }).count(), item).toBe(1);
    await page.getByLabel(/Name of the Feishu app/).fill('Yard bot');
    await page.getByRole('button', { name: 'Create a Feishu app by scanning' }).click();
    const qr = page.getByRole('img', { name: /QR code: scan it with the Feishu app/ });
    await qr.waitFor();
    await page.getByText(/Waiting for the scan and your confirmation · \d+:\d\d left/).waitFor();

    const link = await readQrOnScreen(page);
    expect(link).toMatch(new RegExp(`^${fake.url}/page/launcher\\?user_code=`));
    expect(await page.getByRole('link', { name: /Open the link instead/ }).getAttribute('href')).toBe(link);
    // The section below the sticky bar, as a person scrolled to it sees it.
    await page.evaluate(() => {
      const top = document.getElementById('feishu-app')?.getBoundingClientRect().top ?? 0;
      window.scrollBy(0, top - 64);
    });
    await page.screenshot({ path: join(ARTIFACTS, 'feishu-app-qr.png') });
    if (process.env.UPDATE_DOCS_SCREENSHOTS === '1')
      copyFileSync(join(ARTIFACTS, 'feishu-app-qr.png'), DOCS_SHOT);

    const view = fake.registration.scan(link, { openId: 'ou_ada' });
    expect(view).toMatchObject({ name: 'Yard bot', createOnly: true, discarded: false });
    expect(view.scopes).toEqual(FEISHU_SCOPES.map((s) => s.scope));
    const made = fake.registration.confirm(view.userCode);

    const env = await page.locator('#feishu-app-env').inputValue({ timeout: 20_000 });
    expect(parseEnvFile(env)).toEqual({ FEISHU_APP_ID: made.appId, FEISHU_APP_SECRET: made.appSecret });
    await page.getByText('Feishu app created:').waitFor();
    expect(await qr.count()).toBe(0);
    await shoot(page, '23-setup-feishu-app-created', { fullPage: true });

    // After a reload the app made here is named, its secret nowhere on the page.
    await page.reload();
    await page.locator('#feishu-app-created').waitFor();
    expect(await page.locator('#feishu-app-created').textContent()).toBe(made.appId);
    expect(await page.content()).not.toContain(made.appSecret);
  }, 90_000);

  it('a declined scan and an expired QR code are said so, and a new QR code can be made', async () => {
    const create = page.getByRole('button', { name: 'Create a Feishu app by scanning' });
    await create.click();
    await page.locator('#feishu-app-qr').waitFor();
    const first = await readQrOnScreen(page);
    fake.registration.scan(first);
    fake.registration.deny(new URL(first).searchParams.get('user_code') ?? '');
    await page.getByText('Creating the app was declined in Feishu.', { exact: false }).waitFor();

    await create.click();
    await page.locator('#feishu-app-qr').waitFor();
    const second = await readQrOnScreen(page);
    expect(second).not.toBe(first);
    fake.registration.expire(new URL(second).searchParams.get('user_code') ?? '');
    await page.getByText('The QR code expired before it was confirmed. Make a new one.').waitFor();
    expect(await page.locator('#feishu-app-qr').count()).toBe(0);

    fake.registration.settings.dropNext = 1;
    await create.click();
    await page.getByText(/No QR code: Feishu’s accounts service could not be reached/).waitFor();
  }, 90_000);
});
