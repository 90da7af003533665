import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executorFlow, startWorld, type World } from '../../integration/executor/harness.ts';
import { localMessage, openTicketIn, send, ticketOpenedBy } from '../../integration/routing/helpers.ts';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { roleOf } from '../../kit/scripted-model.ts';
import { api, TOKEN } from './api.ts';
import { ARTIFACTS, launchChromium, signIn } from './browser.ts';

/**
 * Issue 17: a ticket driven through the fakes — a refused call, the acknowledgement, a read, an
 * edit, a command, a commit, a PR, a report, then a pause and a resume — shows each step in its
 * trajectory, in order, with the refusal marked, both in the API and on the panel's ticket page.
 */
describe('issue 17: the ticket trajectory', () => {
  let w: World;
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
  // The browser is shared; the world (product, key prefix, repository) and the signed-in page are
  // each test's own (issue 20).
  beforeEach(async () => {
    w = await startWorld({ ADMIN_TOKEN: TOKEN });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, w.app.url, TOKEN);
  }, 60_000);
  afterEach(async () => {
    await page?.context().close();
    await w?.close();
  });

  it('issue 17, R-C2, R-D2: every step in order — model requests with usage and latency, tools with summaries, the refusal marked, pause and resume', {
    timeout: 120_000,
  }, async () => {
    const flow = executorFlow(w.llm, [
      () => toolCalls(['list_files', {}]),
      (_r, card) =>
        toolCalls(['reply', { to: card, text: `I will make the login redirect fall back to / (${card}).` }]),
      () => toolCalls(['read_file', { path: 'src/login.ts' }]),
      () => toolCalls(['edit_file', { path: 'src/login.ts', old: '=> u;', new: '=> u || "/";' }]),
      () => toolCalls(['run_command', { command: 'grep -c "||" src/login.ts' }]),
      () => toolCalls(['commit_and_push', { message: 'Fall back to / after login' }]),
      () => toolCalls(['open_pr', { title: 'Fall back to / after login', body: 'Falls back to /.' }]),
      () => toolCalls(['report', { status: 'working', summary: 'Draft PR open.' }]),
    ]);
    // A ticket already open in the chat: the request goes to the main session, which opens ours
    // (issue 18), so the routing turn is part of the trajectory too.
    await openTicketIn(w.app.ctx, 'room');
    const card = await send(w.app.ctx, localMessage('Please make the login redirect fall back to /'));
    await flow.done();
    const id = await ticketOpenedBy(w.app.ctx, card);
    await waitFor(async () => {
      const steps = (await api(w.app, 'GET', `/tickets/${id}/trajectory`)).body.steps;
      return steps.some((s: { kind: string }) => s.kind === 'end');
    }, 'the turn’s end');
    // Paused from the page (as ada), resumed through the API with the bearer token (as admin).
    await page.goto(`${w.app.url}/panel/#/tickets/${id}`);
    await page.getByRole('button', { name: `Pause ${id}` }).click();
    await page.getByRole('button', { name: `Resume ${id}` }).waitFor();
    expect((await api(w.app, 'POST', `/tickets/${id}/resume`)).status).toBe(200);

    const { steps: all } = (await api(w.app, 'GET', `/tickets/${id}/trajectory`)).body;
    type Step = { kind: string; name?: string; session?: string; at?: number };
    const nameOf = (s: Step) => (s.kind === 'tool' ? s.name : s.kind);
    const isMain = (s: Step) => Boolean(s.session?.startsWith('main-'));
    // The main session's routing turn that opened the ticket, whole, before the executor's first step.
    const main = all.filter(isMain);
    expect(main.map(nameOf)).toEqual(['turn', 'model', 'orchestrator_route', 'model', 'end']);
    expect(main.find((s: Step) => s.name === 'orchestrator_route')).toMatchObject({
      ok: true,
      result: { head: expect.stringContaining(`opened ${id}`) },
    });
    const firstExec = all.findIndex((s: Step) => s.session === `exec-${id}`);
    expect(all.findIndex((s: Step) => s.name === 'orchestrator_route')).toBeLessThan(firstExec);
    // Every session's steps by time: the times never go back.
    const times = all.flatMap((s: Step) => (s.at === undefined ? [] : [s.at]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const steps = all.filter((s: Step) => !isMain(s));
    const names = steps.map(nameOf);
    expect(names).toEqual([
      'turn',
      'model',
      'list_files',
      'model',
      'reply',
      'model',
      'read_file',
      'model',
      'edit_file',
      'model',
      'run_command',
      'model',
      'commit_and_push',
      'model',
      'open_pr',
      'model',
      'report',
      'model',
      'end',
      'pause',
      'resume',
    ]);
    const tool = (name: string) => steps.find((s: { name?: string }) => s.name === name);
    expect(tool('list_files')).toMatchObject({
      ok: false,
      result: { head: expect.stringContaining('refused') },
    });
    expect(tool('reply')).toMatchObject({
      ok: true,
      message: { to: card },
      sent: { id: expect.any(String) },
    });
    expect(tool('edit_file')).toMatchObject({ ok: true, files: ['src/login.ts'] });
    expect(tool('run_command')).toMatchObject({
      ok: true,
      exitCode: 0,
      args: { head: 'grep -c "||" src/login.ts' },
    });
    const model = steps.find((s: { kind: string }) => s.kind === 'model');
    const request = w.llm.requests.find(
      (q) => roleOf(q) === 'executor' && JSON.stringify(q.messages).includes(card),
    );
    expect(model).toMatchObject({ model: 'deepseek-flash', ms: expect.any(Number) });
    expect(model.usage.promptTokens).toBe(request?.usage?.prompt_tokens);
    expect(steps.at(-2)).toMatchObject({ kind: 'pause', by: 'ada', via: 'api' });
    expect(steps.at(-1)).toMatchObject({ kind: 'resume', by: 'admin', via: 'api' });

    // Issue 49: every step is among the internals, folded below the timeline.
    await page.locator('[data-internals] > summary').click();
    // Live: the resume came through the API after the page loaded; the page shows it without a
    // reload (it polls while the ticket is open).
    await page.locator('ol.trajectory > li[data-kind="resume"]').waitFor();
    await page.getByText(/steps · live/).waitFor();
    const items = page.locator('ol.trajectory > li');
    // The resume may start another turn, whose steps follow: the page shows at least these, in order.
    await waitFor(async () => (await items.count()) >= all.length, 'the trajectory on the page', 30_000);
    const shown = await items.evaluateAll((els) =>
      els.map((e) => ({
        main: (e.getAttribute('data-session') ?? '').startsWith('main-'),
        name: e.getAttribute('data-tool') ?? e.getAttribute('data-kind'),
      })),
    );
    expect(
      shown
        .filter((s) => !s.main)
        .map((s) => s.name)
        .slice(0, names.length),
    ).toEqual(names);
    // The routing turn shows too, marked as the main session's.
    expect(shown.filter((s) => s.main).map((s) => s.name)).toEqual(main.map(nameOf));
    await page
      .locator('ol.trajectory li[data-tool="orchestrator_route"] .step-session', { hasText: 'main session' })
      .waitFor();
    const refused = page.locator('ol.trajectory li[data-refused="true"]');
    await expect(refused.count()).resolves.toBe(1);
    await refused.getByText('list_files refused').waitFor();
    await page.locator('ol.trajectory li[data-tool="run_command"] .badge', { hasText: 'exit 0' }).waitFor();
    // A long output folds: the read file opens on a click.
    const read = page.locator('ol.trajectory li[data-tool="read_file"] details');
    await read.locator('summary').click();
    await read.locator('pre', { hasText: 'export const next' }).waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    // The sticky top bar would cover the section's heading in an element screenshot.
    await page.evaluate(() => {
      for (const el of document.querySelectorAll<HTMLElement>('.topbar')) el.style.position = 'static';
    });
    await page.locator('[data-trajectory]').screenshot({ path: join(ARTIFACTS, '11-trajectory.png') });

    // The main session that routed here serves the whole chat: listed with its own usage, marked
    // shared, and not part of the ticket's usage, which is its executor's.
    const row = page.locator('tr', { has: page.locator('code', { hasText: /^main-/ }) });
    await row.getByText('shared with the other tickets it routes').waitFor();
    const detail = (await api(w.app, 'GET', `/tickets/${id}`)).body;
    const own = detail.sessions.find((s: { shared: boolean }) => !s.shared);
    expect(own.id).toBe(`exec-${id}`);
    expect(detail.usage).toEqual(own.usage);
    await page.locator('tr', { has: page.locator('code', { hasText: /^main-/ }) }).screenshot({
      path: join(ARTIFACTS, '11-shared-session.png'),
    });
  });

  it('issue 17: the trajectory of an unknown ticket is a 404', async () => {
    expect((await api(w.app, 'GET', '/tickets/T999999/trajectory')).status).toBe(404);
  });
});
