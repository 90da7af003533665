import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AbRunState, releaseAbLease, takeAbLease, writeAbRun } from '../../../src/eval/ab-run-store.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';

/**
 * Issue 29, the panel's "Evaluate": POST /api/eval/ab starts `npm run eval -- --prompts` as a child
 * of the web process (the oracle here, EVAL_ORACLE=1), one run at a time (409), its state readable
 * while it runs and after — here a run the CLI refuses, which fails fast; a run that finishes, its
 * arms and each arm's trajectory are in the panel's browser test (evaluate.test.ts). Without an
 * eval model configured, 422 naming what to set.
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
  return { app, send, cookie, csrf: { 'x-switchyard-csrf': csrf as string } };
}

describe('panel "Evaluate": an A/B eval run started from the web process (issue 29)', () => {
  it('starts a run, refuses a second while it runs, and keeps how it ended; the lease goes with it', async () => {
    const { app, send, csrf } = await panelApp({ EVAL_ORACLE: '1', EVAL_ONLY: 'js-slugify' });
    // Without a session (an outsider) or without the session's CSRF token, nothing starts.
    const outsider = await fetch(`${app.url}/api/eval/ab`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ version: 99 }),
    });
    expect(outsider.status).toBe(401);
    expect((await send('POST', '/api/eval/ab', { version: 99 })).status).toBe(403);
    expect((await send('GET', '/api/eval/ab')).body.run).toBeNull();
    // A version the product does not have: the run starts, and the eval CLI refuses it quickly.
    const started = await send('POST', '/api/eval/ab', { version: 99 }, csrf);
    expect(started.status).toBe(202);
    expect(started.body.run).toMatchObject({ state: 'running', candidate: 'r99', oracle: true });
    const again = await send('POST', '/api/eval/ab', { draft: { team: { about: 'Another.' } } }, csrf);
    expect(again).toMatchObject({ status: 409, body: { code: 'eval_running' } });
    const ended = async () => {
      let run = (await send('GET', '/api/eval/ab')).body.run;
      for (const t0 = Date.now(); run.state === 'running' && Date.now() - t0 < 55_000; ) {
        await new Promise((r) => setTimeout(r, 250));
        run = (await send('GET', '/api/eval/ab')).body.run;
      }
      return run;
    };
    const run = await ended();
    expect(run, run.lines.join('\n')).toMatchObject({
      state: 'failed',
      exitCode: 2,
      id: started.body.run.id,
    });
    expect(run.lines.join('\n')).toContain('the product has no prompt version r99');
    // The lease went with the run: another can start (and ends the same way).
    const next = await send('POST', '/api/eval/ab', { version: 98 }, csrf);
    expect(next.status).toBe(202);
    expect(await ended()).toMatchObject({ state: 'failed', id: next.body.run.id });
    // A finished run's arms, comparison and each arm's trajectory: test/e2e/panel/evaluate.test.ts.
  }, 60_000);

  it('a run left running by a web process that died (its lease gone) is answered as failed, saying so', async () => {
    const { app, send } = await panelApp({ EVAL_ORACLE: '1' });
    const orphan: AbRunState = {
      id: 'orphan',
      state: 'running',
      candidate: 'r3',
      oracle: true,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      exitCode: null,
      run: null,
      lines: ['task 1/24 …'],
    };
    await writeAbRun(app.ctx, orphan);
    await takeAbLease(app.ctx, 'orphan', 60_000);
    expect((await send('GET', '/api/eval/ab')).body.run).toMatchObject({ state: 'running' });
    await releaseAbLease(app.ctx, 'orphan');
    expect((await send('GET', '/api/eval/ab')).body.run).toMatchObject({
      id: 'orphan',
      state: 'failed',
      lines: ['task 1/24 …', 'the web process running it stopped'],
    });
  });

  it('a draft a save would refuse is a 422 listing its problems, and no run starts nor holds the lease', async () => {
    const { app, send, cookie, csrf } = await panelApp({ EVAL_ORACLE: '1', EVAL_ONLY: 'js-slugify' });
    const bad = await send('POST', '/api/eval/ab', { draft: { nonsense: 1, team: 'x' } }, csrf);
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid');
    expect(bad.body.errors.map((e: { key: string }) => e.key)).toEqual(expect.arrayContaining(['team']));
    const deep = `{"draft":{"skills":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
    const deepRes = await fetch(`${app.url}/api/eval/ab`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...csrf },
      body: deep,
    });
    expect([400, 422]).toContain(deepRes.status);
    expect((await send('GET', '/api/eval/ab')).body.run).toBeNull();
    // Nothing holds the lease: the next run may start at once.
    expect(await app.ctx.redis.exists(app.ctx.keys.evalAbLease())).toBe(0);
  });

  it('refuses with 422 naming the variables to set when no eval model is configured', async () => {
    const { send, csrf } = await panelApp({});
    const res = await send('POST', '/api/eval/ab', { version: 1 }, csrf);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'eval_not_configured' });
    expect(res.body.error).toMatch(/EVAL_LLM_API_KEY.*EVAL_ORACLE=1/);
    expect((await send('GET', '/api/eval/ab')).body.run).toBeNull();
  });
});
