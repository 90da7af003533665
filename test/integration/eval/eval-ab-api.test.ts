import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';

/**
 * Issue 29, the panel's "Evaluate": POST /api/eval/ab starts `npm run eval -- --prompts` on a draft
 * as a child of the web process (the oracle here, EVAL_ORACLE=1, on one task), one run at a time
 * (409), its state readable while it runs and after, and the finished run's arms and comparison
 * read through the Eval page's API; without an eval model configured, 422 naming what to set.
 */

const TOKEN = 'eval-ab-api-admin-token-0123456789abcdef';
const dirs: string[] = [];
const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps.splice(0)) await a.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function panelApp(env: Record<string, string>) {
  const results = mkdtempSync(join(tmpdir(), 'eval-ab-api-'));
  dirs.push(results);
  const app = await startTestApp(
    { ADMIN_TOKEN: TOKEN, EVAL_RESULTS_DIR: results, ...env },
    { workers: false },
  );
  apps.push(app);
  const signIn = await fetch(`${app.url}/panel/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ token: TOKEN }),
    redirect: 'manual',
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answered
  const send = async (method: string, path: string, body?: unknown, headers = {}): Promise<any> => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', cookie, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  const { csrf } = (await send('GET', '/panel/api/session')).body;
  return { app, send, csrf: { 'x-switchyard-csrf': csrf as string } };
}

describe('panel "Evaluate": an A/B eval run started from the web process (issue 29)', () => {
  it('starts a run on a draft, refuses a second while it runs, and shows its arms comparison once finished', async () => {
    const { send, csrf } = await panelApp({ EVAL_ORACLE: '1', EVAL_ONLY: 'js-slugify' });
    const draft = { draft: { team: { about: 'We are the candidate team.' } } };
    // A panel write without the session's CSRF token starts nothing.
    expect((await send('POST', '/api/eval/ab', draft)).status).toBe(403);
    expect((await send('GET', '/api/eval/ab')).body.run).toBeNull();
    const started = await send('POST', '/api/eval/ab', draft, csrf);
    expect(started.status).toBe(202);
    expect(started.body.run).toMatchObject({ state: 'running', candidate: 'draft', oracle: true });
    const again = await send('POST', '/api/eval/ab', { version: 1 }, csrf);
    expect(again).toMatchObject({ status: 409, body: { code: 'eval_running' } });
    let run = (await send('GET', '/api/eval/ab')).body.run;
    for (const t0 = Date.now(); run.state === 'running' && Date.now() - t0 < 55_000; ) {
      await new Promise((r) => setTimeout(r, 500));
      run = (await send('GET', '/api/eval/ab')).body.run;
    }
    expect(run, run.lines.join('\n')).toMatchObject({
      state: 'finished',
      exitCode: 0,
      id: started.body.run.id,
    });
    expect(run.lines.join('\n')).toContain('candidate − published over 1 paired task run');
    const results = await send('GET', `/api/eval/runs/${run.run}`);
    expect(results.status).toBe(200);
    expect(results.body.meta.prompts).toEqual({
      published: 'defaults',
      candidate: expect.stringMatching(/^draft /),
    });
    expect(results.body.arms).toMatchObject({
      published: { tasks: 1, resolved: 1 },
      candidate: { tasks: 1, resolved: 1 },
    });
    expect(results.body.comparison).toMatchObject({ pairs: 1, resolveRate: { difference: { mean: 0 } } });
    expect(results.body.records.map((r: { arm: string }) => r.arm)).toEqual(['published', 'candidate']);
    // Each arm's task run has its own trajectory; the arm names which, and must be named.
    const trajectory = (query: string) =>
      send('GET', `/api/eval/runs/${run.run}/trajectories/js-slugify/1${query}`);
    for (const arm of ['published', 'candidate']) {
      const kept = await trajectory(`?arm=${arm}`);
      expect(kept.status).toBe(200);
      expect(kept.body.record).toMatchObject({ id: 'js-slugify', run: 1, arm });
      expect(kept.body.steps.length).toBeGreaterThan(0);
    }
    expect((await trajectory('')).status).toBe(404);
    expect(await trajectory('?arm=both')).toMatchObject({ status: 400, body: { code: 'bad_arm' } });
    // The lease went with the run: another can start.
    expect((await send('POST', '/api/eval/ab', { version: 99 }, csrf)).status).toBe(202);
  }, 60_000);

  it('refuses with 422 naming the variables to set when no eval model is configured', async () => {
    const { send, csrf } = await panelApp({});
    const res = await send('POST', '/api/eval/ab', { version: 1 }, csrf);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'eval_not_configured' });
    expect(res.body.error).toMatch(/EVAL_LLM_API_KEY.*EVAL_ORACLE=1/);
    expect((await send('GET', '/api/eval/ab')).body.run).toBeNull();
  });
});
