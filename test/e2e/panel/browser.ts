import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumPath } from '../../../src/executor/screenshot/screenshot-run.ts';

/**
 * The browser the product's screenshot tool would use (`chromiumPath`: `CHROMIUM_PATH`, else
 * Debian's headless shell, Debian's or Ubuntu's Chromium), else Ubuntu's snap: the places
 * `npm run setup` installs to and looks in (issue 16), in its order. The headless shell draws the
 * same pages for about half the CPU of the full browser (bench/README.md).
 */
export const CHROMIUM_PATH =
  chromiumPath(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}) ??
  (existsSync('/snap/bin/chromium') ? '/snap/bin/chromium' : '/usr/bin/chromium-headless-shell');

export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'artifacts', 'panel');

/**
 * Headless Chromium for the panel tests. A missing browser fails the test with the way to get
 * one: these tests are never skipped silently.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Run "npm run setup" (it installs Debian's or ` +
        'Ubuntu\'s browser with apt), or set CHROMIUM_PATH; never "npx playwright install".',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** Signs in through the form, as a person would: the form's page, then the panel again. */
export async function signInThroughForm(
  page: Page,
  baseUrl: string,
  token: string,
  who = 'ada',
): Promise<void> {
  await page.goto(`${baseUrl}/panel/`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByLabel(/Your name/).fill(who);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Panel pages' }).waitFor();
}

/**
 * Signed in as the form would sign in — the same same-origin POST of `token`, its cookie kept by
 * the page's browser context, the name remembered where the form's submit keeps it — and then
 * the panel, loaded once. The form's own page (a second full load of the panel's 55 modules)
 * is left to the tests about signing in (`signInThroughForm`): each load is Chromium's CPU.
 */
export async function signIn(page: Page, baseUrl: string, token: string, who = 'ada'): Promise<void> {
  const context = page.context();
  const res = await context.request.post(`${baseUrl}/panel/sign-in`, {
    form: { token, who },
    headers: { origin: baseUrl },
    maxRedirects: 0,
  });
  if (res.status() !== 303 || res.headers().location !== '/panel/')
    throw new Error(`sign-in answered ${res.status()} to ${res.headers().location ?? 'nowhere'}`);
  // As the form's submit does (rememberWho in api.js), for this page and the ones it opens.
  await context.addInitScript((name) => {
    if (name.trim() && localStorage.getItem('switchyard.who') === null)
      localStorage.setItem('switchyard.who', name.trim());
  }, who);
  await page.goto(`${baseUrl}/panel/`);
  await page.getByRole('navigation', { name: 'Panel pages' }).waitFor();
}

/** A screenshot of what the window shows, in `test/artifacts/panel/` (gitignored). */
export async function shoot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  // The passing "Saved" toast is not part of the page.
  await page.evaluate(() => {
    const toast = document.getElementById('toast');
    if (toast) toast.style.transition = 'none';
    toast?.classList.remove('shown');
  });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: opts.fullPage ?? false });
}

/**
 * A page signed in to the panel (English, 1000 px high), and the problems it meets: page errors,
 * and console errors — a style or script the panel's policy ('self' only) blocks is one.
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  token: string,
  width = 1400,
): Promise<{ page: Page; problems: string[] }> {
  const problems: string[] = [];
  const context = await browser.newContext({ viewport: { width, height: 1000 }, locale: 'en-US' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('pageerror', (err) => problems.push(err.message));
  await signIn(page, baseUrl, token);
  page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
  return { page, problems };
}

/**
 * A screenshot of one part of the page (`#page` by default) with the bar kept out of it, in
 * `test/artifacts/panel/`; copied to `docs` (a committed picture) only when
 * `UPDATE_DOCS_SCREENSHOTS=1` asks.
 */
export async function partShot(
  page: Page,
  name: string,
  opts: { selector?: string; docs?: string } = {},
): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>('.topbar')) el.style.position = 'static';
  });
  await page.locator(opts.selector ?? '#page').screenshot({ path: file });
  if (opts.docs && process.env.UPDATE_DOCS_SCREENSHOTS === '1') copyFileSync(file, opts.docs);
}
