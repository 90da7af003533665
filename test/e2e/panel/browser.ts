import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * `CHROMIUM_PATH`, else Debian's Chromium, else Ubuntu's (a snap behind `chromium-browser`): the
 * places `npm run setup` installs to and looks in (issue 16).
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'].find((p) => existsSync(p)) ??
  '/usr/bin/chromium';

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

/** Signs in through the form, as a person would. */
export async function signIn(page: Page, baseUrl: string, token: string, who = 'ada'): Promise<void> {
  await page.goto(`${baseUrl}/panel/`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByLabel(/Your name/).fill(who);
  await page.getByRole('button', { name: 'Sign in' }).click();
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
