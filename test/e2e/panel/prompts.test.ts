import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { api, TOKEN } from './api.ts';
import { launchChromium, shoot, signIn, signInThroughForm } from './browser.ts';

const SCRIPT = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

/** The prompt settings page in headless Chromium against the real server (issue 6, R-E6, R-F1, R-F2). */
describe('panel: prompt settings and versions', () => {
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
  // The browser is shared; the product, its key prefix (so its revisions start at 0) and the page
  // are each test's own (issue 20): a test that needs saved revisions saves them itself.
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
  }, 60_000);
  afterEach(async () => {
    await context?.close();
    await app?.close();
  });

  /** Saves a new revision through the API with these section overrides (the rest as it is). */
  async function saveOverrides(overrides: Record<string, { text: string; base?: string }>): Promise<number> {
    const view = (await api(app, 'GET', '/prompts')).body;
    const saved = await api(app, 'PUT', '/prompts', {
      baseRevision: view.revision,
      team: view.team,
      skills: view.skills.team,
      overrides,
    });
    expect(saved.status).toBe(200);
    return saved.body.revision;
  }

  /** Signed in as ada, on the prompt settings page with its sections shown. */
  async function onPromptsPage(): Promise<void> {
    await signIn(page, app.url, TOKEN);
    // A sign-in lands on Home (issue 33 item 1).
    await page.goto(`${app.url}/panel/#/prompts`);
    await section(page, 'dispatch').waitFor();
  }

  const section = (p: Page, key: string) => p.locator(`article[data-key="${key}"]`);

  it('signs in with the admin token; a wrong token is refused; the cookie is HTTP-only, SameSite=Strict and not the token', async () => {
    await page.goto(`${app.url}/panel/`);
    await page.getByLabel('Admin token').waitFor();
    await shoot(page, '01-sign-in');
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'not right' }).textContent()).resolves.toContain(
      'not right',
    );
    await signInThroughForm(page, app.url, TOKEN);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'sy_panel', httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.value).not.toContain(TOKEN);
  });

  it('edits an override and saves it; a <script> in the text stays text', async () => {
    await onPromptsPage();
    await section(page, 'dispatch').getByRole('button', { name: 'Override this section' }).click();
    const box = page.getByLabel('Team override of dispatch');
    await box.fill(`Route carefully.\n${SCRIPT}`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved revision 1').waitFor();
    const view = (await api(app, 'GET', '/prompts')).body;
    expect(view.revision).toBe(1);
    expect(view.sections.find((s: { key: string }) => s.key === 'dispatch').override.text).toContain(SCRIPT);
    await page.reload();
    await expect(page.getByLabel('Team override of dispatch').inputValue()).resolves.toContain(SCRIPT);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('#page img').count()).toBe(0);
    await shoot(page, '02-prompts');
  });

  it('R-F2: a second tab’s stale save gets the conflict view, with its draft intact and what changed meanwhile', async () => {
    expect(await saveOverrides({ dispatch: { text: 'Route carefully.' } })).toBe(1);
    await onPromptsPage();
    const other = await context.newPage();
    await other.goto(`${app.url}/panel/#/prompts`);
    await other.getByLabel('Team override of dispatch').waitFor();
    // The first tab saves revision 2 while the second still has revision 1 open.
    await page.getByLabel('Team override of dispatch').fill('Route with care, tab one.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved revision 2').waitFor();
    await other.getByLabel('Team override of dispatch').fill('My draft from tab two.');
    await other.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = other.getByRole('alert').filter({ hasText: 'Not saved: revision 2' });
    await conflict.waitFor();
    await conflict.getByText('Route with care, tab one.').waitFor();
    await expect(other.getByLabel('Team override of dispatch').inputValue()).resolves.toBe(
      'My draft from tab two.',
    );
    expect((await api(app, 'GET', '/prompts')).body.revision).toBe(2);
    await shoot(other, '03-conflict');
    await other.close();
  });

  it('R-E6: a changed default shows the badge and the diff; "Adopt default" removes the override', async () => {
    await onPromptsPage();
    const view = (await api(app, 'GET', '/prompts')).body;
    const handoff = view.sections.find((s: { key: string }) => s.key === 'handoff');
    const oldDefault = `${handoff.default}\nAn older line that the new default dropped.`;
    const saved = await api(app, 'PUT', '/prompts', {
      baseRevision: view.revision,
      team: view.team,
      skills: view.skills.team,
      overrides: {
        dispatch: { text: 'Route with care, tab one.' },
        handoff: { text: 'Our own hand-off text.', base: oldDefault },
      },
    });
    expect(saved.status).toBe(200);
    await page.reload();
    const card = section(page, 'handoff');
    await card.getByText('Default updated', { exact: true }).waitFor();
    await card
      .locator('.diff .del')
      .filter({ hasText: 'An older line that the new default dropped.' })
      .waitFor();
    await expect(page.getByLabel('Team override of handoff').inputValue()).resolves.toBe(
      'Our own hand-off text.',
    );
    await card.scrollIntoViewIfNeeded();
    await shoot(page, '04-default-updated');
    await card.getByRole('button', { name: 'Adopt default' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(`Saved revision ${saved.body.revision + 1}`).waitFor();
    const after = (await api(app, 'GET', '/prompts')).body;
    expect(after.sections.find((s: { key: string }) => s.key === 'handoff').override).toBeNull();
  });

  it('shows problems inline by key, untruncated, and keeps the draft', async () => {
    await onPromptsPage();
    await section(page, 'runtime/policy').getByRole('button', { name: 'Override this section' }).click();
    const long = `No placeholders here. ${'word '.repeat(60)}`;
    await page.getByLabel('Team override of runtime/policy').fill(long);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const inline = section(page, 'runtime/policy').locator('.problems li');
    await inline.first().waitFor();
    expect(await inline.first().textContent()).toContain('missing_placeholder');
    await expect(page.getByLabel('Team override of runtime/policy').inputValue()).resolves.toBe(long);
    await section(page, 'runtime/policy').getByRole('button', { name: 'Remove override' }).click();
  });

  it('previews the assembled prompt of the draft with section boundaries', async () => {
    await saveOverrides({ dispatch: { text: 'Route carefully.' } });
    await onPromptsPage();
    await page.getByLabel('Team override of dispatch').fill('Preview me, not saved.');
    await page.getByRole('tab', { name: 'Preview' }).click();
    const labels = page.locator('.assembled .part-label');
    await page.locator('.assembled pre').filter({ hasText: 'Preview me, not saved.' }).waitFor();
    const main = await labels.allTextContents();
    expect(main).toEqual(
      expect.arrayContaining(['shared', 'dispatch', 'runtime/admission', 'runtime/policy']),
    );
    expect(main.indexOf('dispatch')).toBeLessThan(main.indexOf('runtime/policy'));
    await shoot(page, '05-preview');
    await page.getByRole('tab', { name: 'Executor' }).click();
    await page.locator('.assembled .part-label', { hasText: 'work' }).first().waitFor();
    expect(await labels.allTextContents()).not.toContain('runtime/policy');
  });

  it('R-F1: versions list, diff of two, and restoring an old version makes a new one', async () => {
    expect(await saveOverrides({ dispatch: { text: `Route carefully.\n${SCRIPT}` } })).toBe(1);
    expect(await saveOverrides({ dispatch: { text: 'Route with care, tab one.' } })).toBe(2);
    await onPromptsPage();
    await page.getByRole('link', { name: 'Versions' }).click();
    await page.locator('tr[data-revision="1"]').waitFor();
    const head = (await api(app, 'GET', '/prompts')).body.revision;
    expect(await page.locator('tr[data-revision]').count()).toBe(head);
    await page.goto(`${app.url}/panel/#/versions/diff/1/2`);
    await page.locator('.config-diff .add').filter({ hasText: 'Route with care, tab one.' }).waitFor();
    await shoot(page, '06-versions');
    await page.getByRole('link', { name: 'r2', exact: true }).click();
    await page.getByRole('heading', { name: 'Revision 2' }).waitFor();
    await shoot(page, '06-version-r2');
    await page.getByRole('button', { name: 'Restore r1' }).click();
    await page.locator(`tr[data-revision="${head + 1}"]`).waitFor();
    const now = (await api(app, 'GET', '/prompts')).body;
    expect(now.revision).toBe(head + 1);
    expect(now.sections.find((s: { key: string }) => s.key === 'dispatch').override.text).toContain(SCRIPT);
    const restored = (await api(app, 'GET', `/prompts/versions/${head + 1}`)).body;
    expect(restored).toMatchObject({ source: 'panel', who: 'ada', restoredFrom: 1 });
  });
});
