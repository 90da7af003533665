import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, shoot } from './browser.ts';

const DOCS = join(import.meta.dirname, '..', '..', '..', 'docs');

/** The visible boxes of the header's items (and of the links and buttons in its open menu). */
const headerBoxes = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.topbar .brand, .topbar button, .topbar a')]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(
        ({ el, box }) => box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden',
      )
      .map(({ el, box }) => {
        // A page link is seen only where the navigation, which may scroll, shows it.
        const nav = el.closest('#nav')?.getBoundingClientRect();
        const left = nav ? Math.max(box.left, nav.left) : box.left;
        const right = nav ? Math.min(box.right, nav.right) : box.right;
        return { name: (el.textContent ?? '').trim(), left, right, top: box.top, bottom: box.bottom };
      })
      .filter((b) => b.right - b.left > 0.5),
  );

type Box = Awaited<ReturnType<typeof headerBoxes>>[number];
const overlap = (a: Box, b: Box) =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

/** Every pair of header items that overlap, by name; and items that leave the window. */
async function layoutProblems(page: Page): Promise<string[]> {
  const boxes = await headerBoxes(page);
  const width = await page.evaluate(() => window.innerWidth);
  const problems: string[] = [];
  boxes.forEach((a, i) => {
    if (a.left < 0 || a.right > width + 0.5) problems.push(`${a.name} leaves the screen`);
    for (const b of boxes.slice(i + 1)) if (overlap(a, b)) problems.push(`${a.name} overlaps ${b.name}`);
  });
  const scroll = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if ((scroll[0] ?? 0) > (scroll[1] ?? 0)) problems.push(`the page scrolls sideways: ${scroll.join(' > ')}`);
  return problems;
}

/** The page links the navigation does not show whole (clipped by its edge). */
const cutPageLinks = (page: Page) =>
  page.evaluate(() => {
    const nav = document.getElementById('nav')?.getBoundingClientRect();
    if (!nav) return ['no navigation'];
    return [...document.querySelectorAll('#nav a')]
      .filter((a) => {
        const box = a.getBoundingClientRect();
        return box.left < nav.left - 0.5 || box.right > nav.right + 0.5 || box.width === 0;
      })
      .map((a) => (a.textContent ?? '').trim());
  });

const focused = (page: Page) =>
  page.evaluate(() => ({
    id: document.activeElement?.id ?? '',
    text: (document.activeElement?.textContent ?? '').trim(),
  }));

/** Presses Tab until `want` holds for the focused element (at most `max` presses). */
async function tabTo(page: Page, want: (f: { id: string; text: string }) => boolean, max = 20) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (want(await focused(page))) return;
  }
  throw new Error(`Tab never reached it; last: ${JSON.stringify(await focused(page))}`);
}

describe('panel at 390 px: a menu button, nothing overlapping or off screen (issue 33 item 7)', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signed out and signed in, every page fits 390 px; the menu opens by keyboard, a page chosen by keyboard closes it, the page itself is never framed', async () => {
    await page.goto(`${app.url}/panel/`);
    await page.getByLabel('Admin token').waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByLabel('Admin token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.waitFor();
    // Folded: brand and menu button side by side, the pages out of sight.
    expect(await page.getByRole('navigation', { name: 'Panel pages' }).isVisible()).toBe(false);
    expect(await layoutProblems(page)).toEqual([]);
    const pages = await page.$$eval('#nav a', (as) => as.map((a) => a.getAttribute('href') ?? ''));
    for (const href of pages) {
      await page.goto(`${app.url}/panel/${href}`);
      await page.waitForFunction(
        () => document.getElementById('page')?.getAttribute('aria-busy') === 'false',
      );
      expect({ href, problems: await layoutProblems(page) }).toEqual({ href, problems: [] });
    }

    // Keyboard: Tab to the menu button, Enter opens it; its focus ring shows on the button.
    await page.goto(`${app.url}/panel/#/tickets`);
    await page.waitForFunction(() => document.getElementById('page')?.getAttribute('aria-busy') === 'false');
    await shoot(page, 'panel-390-folded');
    await page.locator('body').focus();
    await tabTo(page, (f) => f.id === 'menu-button');
    expect(await menu.evaluate((b) => getComputedStyle(b).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('navigation', { name: 'Panel pages' }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await shoot(page, 'panel-390');
    // The committed picture changes only when asked, as partShot's do.
    if (process.env.UPDATE_DOCS_SCREENSHOTS === '1')
      copyFileSync(join(ARTIFACTS, 'panel-390.png'), join(DOCS, 'panel-390.png'));

    // Escape folds it and gives the focus back to the button; Enter opens it again.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect((await focused(page)).id).toBe('menu-button');
    await page.keyboard.press('Enter');
    await tabTo(page, (f) => f.text === 'Queues');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/queues$/);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Panel pages' }).isVisible()).toBe(false);
    // The page took the focus for screen readers, with no frame drawn around all of it.
    await page.waitForFunction(() => document.activeElement?.id === 'view');
    expect(await page.locator('#view').evaluate((v) => getComputedStyle(v).outlineStyle)).toBe('none');

    // Wider windows: every page's link whole in the bar (on a row of its own where the pages do
    // not fit beside the rest), nothing overlapping.
    for (const width of [1024, 1280, 1400, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(100);
      expect({ width, problems: await layoutProblems(page) }).toEqual({ width, problems: [] });
      await shoot(page, `panel-${width}`);
      expect(await menu.isVisible(), `${width}`).toBe(false);
      expect(await page.getByRole('navigation', { name: 'Panel pages' }).isVisible()).toBe(true);
      expect({ width, cut: await cutPageLinks(page) }).toEqual({ width, cut: [] });
    }
    expect(errors).toEqual([]);
  }, 90_000);
});
