import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The page as a browser draws it (the eval's UI grading, issue 47): headless Chromium opens the
 * tree's own files by file://, every other request refused, at the width asked. The eval gives
 * each check the browser (EVAL_CHROMIUM) and playwright-core (EVAL_PLAYWRIGHT_CORE).
 */
export async function openPage(file, width, height = 800) {
  const { EVAL_PLAYWRIGHT_CORE: playwright, EVAL_CHROMIUM: executablePath } = process.env;
  if (!playwright || !executablePath)
    throw new Error('no browser: the eval sets EVAL_CHROMIUM and EVAL_PLAYWRIGHT_CORE where Chromium is installed');
  const { chromium } = await import(pathToFileURL(join(playwright, 'index.mjs')).href);
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    // The check's sandbox is the isolation: Chromium's own needs user namespaces it does not give.
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.route('**/*', (route) =>
      route.request().url().startsWith('file:') ? route.continue() : route.abort(),
    );
    await page.goto(pathToFileURL(join(process.cwd(), file)).href, { waitUntil: 'load', timeout: 30_000 });
    return { page, close: () => browser.close() };
  } catch (err) {
    await browser.close();
    throw err;
  }
}
