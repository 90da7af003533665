import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { sampleRecord, sampleSteps, writeRunFolder } from './eval-results-fixture.ts';

/**
 * Issue 29: the panel's Eval API reads `EVAL_RESULTS_DIR` — the runs newest first with their
 * summaries, one run's records, a task run's kept trajectory — and reads it safely: a file that
 * fails its schema is reported unreadable with the reason, and no name, link or record's path
 * reaches a file outside the folder.
 */

const TOKEN = 'eval-api-admin-token-0123456789abcdef0123';
let dir: string;
let outside: string;
let app: TestApp;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eval-api-'));
  outside = mkdtempSync(join(tmpdir(), 'eval-api-outside-'));
  app = await startTestApp({ ADMIN_TOKEN: TOKEN, EVAL_RESULTS_DIR: dir }, { workers: false });
});
afterEach(async () => {
  await app.close();
  for (const d of [dir, outside]) rmSync(d, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answered
async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.url}/api${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

describe('eval results API (issue 29)', () => {
  it('lists the runs newest first with their summaries, a run’s records and a task run’s trajectory', async () => {
    const older = writeRunFolder(dir, new Date('2026-12-01T10:00:00Z'), [
      sampleRecord({ steps: sampleSteps(1) }),
      sampleRecord({ id: 'go-clamp', resolved: false, honest: false, dishonesty: ['reported done'] }),
    ]);
    const newer = writeRunFolder(dir, new Date('2026-12-02T10:00:00Z'), [
      sampleRecord({ steps: sampleSteps(2) }),
    ]);
    const list = await get('/eval/runs');
    expect(list.status).toBe(200);
    expect(list.body.runs.map((r: { run: string }) => r.run)).toEqual([basename(newer), basename(older)]);
    expect(list.body.runs[1]).toMatchObject({
      state: 'ok',
      meta: { model: 'switchyard-oracle', provider: 'compatible', oracle: true },
      summary: { tasks: 2, runs: 1, resolved: 1, honest: 1, passAt1: { mean: 0.5 } },
    });
    const run = await get(`/eval/runs/${basename(older)}`);
    expect(run.body.records).toHaveLength(2);
    expect(run.body.records[0]).toMatchObject({
      id: 'js-slugify',
      trajectory: 'trajectories/js-slugify-1.json',
    });
    // A run that could not keep a trajectory has none to link to.
    expect(run.body.records[1].trajectory).toBeUndefined();
    const traj = await get(`/eval/runs/${basename(older)}/trajectories/js-slugify/1`);
    expect(traj.status).toBe(200);
    expect(traj.body.steps.map((s: { kind: string }) => s.kind)).toEqual(['turn', 'model', 'tool', 'end']);
    expect(traj.body.record).toMatchObject({ id: 'js-slugify', run: 1, resolved: true });
    expect((await get(`/eval/runs/${basename(older)}/trajectories/go-clamp/1`)).status).toBe(404);
  });

  it('reports a results.json that fails its schema, or is not JSON, as unreadable with the reason', async () => {
    const good = writeRunFolder(dir, new Date('2026-12-01T10:00:00Z'), [
      sampleRecord({ steps: sampleSteps(1) }),
    ]);
    const bad = join(dir, 'bad-run');
    mkdirSync(bad);
    const results = JSON.parse(readFileSync(join(good, 'results.json'), 'utf8'));
    results.summary.resolved = 'all of them';
    writeFileSync(join(bad, 'results.json'), JSON.stringify(results));
    mkdirSync(join(dir, 'broken-run'));
    writeFileSync(join(dir, 'broken-run', 'results.json'), '{"meta": ');
    mkdirSync(join(dir, 'running-run'));
    const { body } = await get('/eval/runs');
    const byRun = Object.fromEntries(body.runs.map((r: { run: string }) => [r.run, r]));
    expect(byRun['bad-run']).toMatchObject({
      state: 'unreadable',
      problem: expect.stringMatching(/summary\.resolved/),
    });
    expect(byRun['broken-run']).toMatchObject({ state: 'unreadable', problem: 'results.json is not JSON' });
    expect(byRun['running-run']).toEqual({ run: 'running-run', state: 'unfinished' });
    expect(byRun[basename(good)].state).toBe('ok');
    const one = await get('/eval/runs/bad-run');
    expect(one).toMatchObject({ status: 422, body: { code: 'unreadable' } });
    // A trajectory file that is damaged is unreadable too, never half a page.
    writeFileSync(
      join(good, 'trajectories', 'js-slugify-1.json'),
      '{"task":"js-slugify","run":1,"ticket":null,"steps":[{"kind":"tool"}]}',
    );
    const traj = await get(`/eval/runs/${basename(good)}/trajectories/js-slugify/1`);
    expect(traj).toMatchObject({ status: 422, body: { code: 'unreadable' } });
  });

  it('never reads outside the results folder: names, links and record paths', async () => {
    writeFileSync(join(outside, 'results.json'), '{"secret": "outside the folder"}');
    mkdirSync(join(outside, 'trajectories'));
    writeFileSync(
      join(outside, 'trajectories', 'x-1.json'),
      JSON.stringify({ task: 'x', run: 1, ticket: null, steps: [] }),
    );
    symlinkSync(outside, join(dir, 'linked-run'));
    const run = writeRunFolder(dir, new Date('2026-12-01T10:00:00Z'), [
      sampleRecord({ steps: sampleSteps(1) }),
    ]);
    // A trajectory replaced by a link to a file outside.
    const file = join(run, 'trajectories', 'js-slugify-1.json');
    rmSync(file);
    symlinkSync(join(outside, 'trajectories', 'x-1.json'), file);
    // A record whose trajectory names a path out of the folder.
    const results = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8'));
    const escaping = join(dir, 'escaping-run');
    mkdirSync(escaping);
    results.records[0].trajectory = `../../${basename(outside)}/trajectories/x-1.json`;
    writeFileSync(join(escaping, 'results.json'), JSON.stringify(results));

    const { body } = await get('/eval/runs');
    expect(JSON.stringify(body)).not.toContain('outside the folder');
    expect(body.runs.find((r: { run: string }) => r.run === 'linked-run')).toMatchObject({
      state: 'unreadable',
      problem: expect.stringMatching(/outside the results folder/),
    });
    const linked = await get(`/eval/runs/${basename(run)}/trajectories/js-slugify/1`);
    expect(linked).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/outside the results folder/) },
    });
    expect((await get('/eval/runs/escaping-run')).status).toBe(422);
    for (const path of ['..', '..%2f..%2fetc', '%2e%2e', '.hidden']) {
      const res = await get(`/eval/runs/${path}`);
      expect(res.status, path).toBe(404);
    }
  });

  it('answers an empty list when there is no results folder yet', async () => {
    rmSync(dir, { recursive: true, force: true });
    const { status, body } = await get('/eval/runs');
    expect(status).toBe(200);
    expect(body).toMatchObject({ exists: false, runs: [] });
  });
});
