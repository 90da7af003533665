import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APP_EVENTS, APP_PERMISSIONS } from '../../../src/channels/github/app-needs.ts';
import { loadConfig } from '../../../src/config.ts';
import { checkGitHubApp } from '../../../src/doctor/check-github-app.ts';
import { sayIn } from '../../../src/doctor/doctor-text.ts';
import { parseEnvFile } from '../../../src/env-file.ts';
import { chooseRepo } from '../../../src/executor/workspace/repo-choice.ts';
import { getChatRepo } from '../../../src/router/chat-repos.ts';
import type { Ticket } from '../../../src/tickets/ticket.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import { TOKEN } from './api.ts';
import { launchChromium, shoot, signIn } from './browser.ts';

/** A fetch from inside the signed-in page, with its cookie and the session's CSRF token. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answered
function pageFetch(page: Page, path: string, body: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([p, b]) => {
      const { csrf } = await (await fetch('/panel/api/session')).json();
      const res = await fetch(p as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-switchyard-csrf': csrf },
        body: JSON.stringify(b),
      });
      return { status: res.status, body: await res.json() };
    },
    [path, body] as const,
  );
}

/**
 * Issue 16: the GitHub App manifest flow in headless Chromium against the fake GitHub. The
 * panel is opened on `localhost` and the fake on `127.0.0.1`, so GitHub's redirect back is a
 * cross-site navigation, as in production (the `SameSite=Strict` cookie is not sent with it).
 */
describe('panel: create the GitHub App from a manifest (issue 16)', () => {
  let gh: FakeGitHub;
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base = '';
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    expect(errors).toEqual([]);
  });
  // The browser is shared; the fake GitHub, the product, its key prefix and the signed-in page are
  // each test's own (issue 20).
  beforeEach(async () => {
    gh = await startFakeGitHub();
    app = await startTestApp(
      {
        ADMIN_TOKEN: TOKEN,
        GITHUB_API_URL: gh.url,
        // Issue 31: a chat listed twice is bound to both; the Setup page shows both.
        CHAT_REPOS: 'oc_env_chat=acme/web,oc_env_chat=acme/api',
      },
      { workers: false },
    );
    base = app.url.replace('127.0.0.1', 'localhost');
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, base, TOKEN);
  }, 60_000);
  afterEach(async () => {
    await context?.close();
    await app?.close();
    await gh?.close();
  });

  it('the manifest carries exactly what the bot needs; GitHub sends the browser back; the code becomes .env lines and a stored App', async () => {
    await page.getByRole('link', { name: 'Setup' }).click();
    await page.locator('#github-app-needs').waitFor();
    expect(await page.locator('#github-app-needs').textContent()).toContain('check_suite');
    await page.getByLabel('App name').fill('yard-e2e');
    await shoot(page, '20-setup-github-app', { fullPage: true });
    await page.getByRole('button', { name: 'Create GitHub App on GitHub' }).click();

    await page.getByRole('heading', { name: 'Create GitHub App for fake-owner' }).waitFor();
    const pending = [...gh.manifests.pending.values()].find((p) => p.manifest.name === 'yard-e2e');
    expect(pending?.state).toMatch(/^[\w-]{32,}$/);
    expect(pending?.manifest).toMatchObject({
      name: 'yard-e2e',
      url: base,
      hook_attributes: { url: `${base}/webhooks/github`, active: true },
      redirect_url: `${base}/panel/github-app/callback`,
      public: false,
      default_permissions: APP_PERMISSIONS,
      default_events: [...APP_EVENTS],
    });
    await page.getByRole('button', { name: 'Create GitHub App for fake-owner' }).click();

    const env = await page.locator('#github-app-env').inputValue({ timeout: 20_000 });
    const made = gh.manifests.created.at(-1);
    if (!made) throw new Error('the fake created no App');
    expect(page.url()).toBe(`${base}/panel/#/setup`);
    const vars = parseEnvFile(env);
    expect(vars.GITHUB_APP_ID).toBe(String(made.id));
    expect(vars.GITHUB_WEBHOOK_SECRET).toBe(made.webhookSecret);
    // The key is the PEM itself, over several lines: nothing to unescape.
    expect(vars.GITHUB_PRIVATE_KEY).toBe(made.pem.trim());
    expect(env).not.toContain('\\n');
    expect(await page.locator('#github-app-install').getAttribute('href')).toBe(
      `${gh.url}/apps/yard-e2e/installations/new`,
    );
    await shoot(page, '21-setup-github-app-created', { fullPage: true });

    // With those lines, the start-up check finds every permission and event in place.
    const config = loadConfig({
      GITHUB_API_URL: gh.url,
      GITHUB_APP_ID: vars.GITHUB_APP_ID ?? '',
      GITHUB_PRIVATE_KEY: vars.GITHUB_PRIVATE_KEY ?? '',
      GITHUB_WEBHOOK_SECRET: vars.GITHUB_WEBHOOK_SECRET ?? '',
    });
    const findings = await checkGitHubApp(
      config,
      { appId: String(made.id), key: vars.GITHUB_PRIVATE_KEY ?? '' },
      10_000,
      sayIn('en'),
    );
    expect(findings).toEqual([
      { check: 'github', status: 'ok', detail: 'App yard-e2e: permissions and events in place' },
    ]);

    // The stored App (no secrets) shows on the page after a reload.
    await page.reload();
    await page.locator('#github-app-created').waitFor();
    expect(await page.locator('#github-app-created').textContent()).toBe(`yard-e2e (id ${made.id})`);
    const stored = await app.ctx.redis.get(app.ctx.keys.githubAppCreated());
    expect(stored).toContain('"slug":"yard-e2e"');
    expect(stored).not.toContain('PRIVATE KEY');
    expect(stored).not.toContain(made.webhookSecret);
  }, 90_000);

  it('a state is single-use and only its own session redeems it; a spent code is refused (404) like GitHub', async () => {
    // A code GitHub handed out and already redeemed (the fake's registration page, then its exchange).
    const page1 = gh.manifests.newAppPage(
      new URLSearchParams({ manifest: JSON.stringify({ name: 'spent', url: base }) }),
      new URLSearchParams(),
    );
    const spentCode = /name="code" value="(\w+)"/.exec(page1.html)?.[1] ?? '';
    expect(gh.manifests.convert(spentCode).status).toBe(201);
    expect(gh.manifests.convert(spentCode).status).toBe(404);
    expect(spentCode).not.toBe('');
    const started = await pageFetch(page, '/panel/api/github-app/manifest', {
      name: 'yard-two',
      org: 'acme',
      publicUrl: base,
    });
    expect(started.status).toBe(200);
    expect(started.body.action).toMatch(
      new RegExp(`^${gh.url}/organizations/acme/settings/apps/new\\?state=`),
    );
    const state = new URL(started.body.action).searchParams.get('state') ?? '';

    // Another signed-in browser cannot redeem this session's state (and spends it).
    const other = await (await browser.newContext()).newPage();
    await signIn(other, base, TOKEN, 'mallory');
    const stolen = await pageFetch(other, '/panel/api/github-app/conversions', { code: spentCode, state });
    expect(stolen).toMatchObject({ status: 403, body: { code: 'state_other_session' } });
    const again = await pageFetch(page, '/panel/api/github-app/conversions', { code: spentCode, state });
    expect(again).toMatchObject({ status: 403, body: { code: 'state_unknown' } });

    // A fresh state with a code GitHub already redeemed: GitHub's 404, passed on.
    const fresh = await pageFetch(page, '/panel/api/github-app/manifest', {
      name: 'yard-3',
      publicUrl: base,
    });
    const freshState = new URL(fresh.body.action).searchParams.get('state') ?? '';
    const reused = await pageFetch(page, '/panel/api/github-app/conversions', {
      code: spentCode,
      state: freshState,
    });
    expect(reused).toMatchObject({ status: 404, body: { code: 'code_refused' } });
    expect(gh.callsTo('POST', `/app-manifests/${spentCode}/conversions`).map((c) => c.status)).toEqual([404]);
  }, 60_000);
  it("issue 16: the Setup page's chat field sets a chat's default repository, which the executor reads; a bad name is refused", async () => {
    await page.goto(`${base}/panel/#/setup`);
    const envRow = page.locator('#chat-repos-list tr[data-chat="oc_env_chat"]');
    expect(await envRow.locator('td').nth(1).textContent()).toBe('acme/web, acme/api');
    await page.getByLabel('Chat id').fill('oc_panel_chat');
    await page.getByLabel(/Default repository/).fill('acme/panel');
    await page.getByRole('button', { name: 'Save chat repository' }).click();
    await page.locator('#chat-repos-list tr[data-chat="oc_panel_chat"]').waitFor();
    expect(await getChatRepo(app.ctx, 'oc_panel_chat')).toBe('acme/panel');
    const ticket = {
      id: 'T-panel-none',
      origin: { source: 'feishu', chatId: 'oc_panel_chat' },
    } as unknown as Ticket;
    expect((await chooseRepo(app.ctx, ticket)).repo).toBe('acme/panel');
    await shoot(page, '22-setup-chat-repos', { fullPage: true });

    await page.getByLabel(/Default repository/).fill('not a repo');
    await page.getByRole('button', { name: 'Save chat repository' }).click();
    await page.getByText('write owner/name, for example acme/api').waitFor();
    expect(await getChatRepo(app.ctx, 'oc_panel_chat')).toBe('acme/panel');

    await page.getByLabel(/Default repository/).fill('');
    await page.getByRole('button', { name: 'Save chat repository' }).click();
    await page.locator('#chat-repos-list tr[data-chat="oc_panel_chat"]').waitFor({ state: 'detached' });
    expect(await getChatRepo(app.ctx, 'oc_panel_chat')).toBeUndefined();
  }, 60_000);
});
