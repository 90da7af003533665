import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { call, TOKEN } from './client.ts';

const rule = { id: 'flaky', name: 'Flaky tests', instruction: 'Stabilise flaky tests.', enabled: true };

describe('/api/policy (R-B8, R-E9, R-F2)', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
  });
  afterEach(() => app.close());

  it('GET answers explicit with no rules at revision 0 before any save', async () => {
    expect(await call(app, 'GET', '/policy')).toEqual({
      status: 200,
      body: { revision: 0, mode: 'explicit', rules: [] },
    });
  });

  it('PUT saves a version; a stale baseRevision is 409 and keeps nothing; no base goes on top', async () => {
    const body = { baseRevision: 0, mode: 'inferred', rules: [rule] };
    expect(await call(app, 'PUT', '/policy', { body })).toEqual({
      status: 200,
      body: { revision: 1, dropped: [] },
    });
    expect(await call(app, 'PUT', '/policy', { body: { ...body, mode: 'explicit' } })).toEqual({
      status: 409,
      body: { error: 'conflict', code: 'conflict', currentRevision: 1 },
    });
    expect((await call(app, 'GET', '/policy')).body).toEqual({
      revision: 1,
      mode: 'inferred',
      rules: [rule],
    });
    const onTop = await call(app, 'PUT', '/policy', { body: { mode: 'explicit', rules: [] } });
    expect(onTop.body.revision).toBe(2);
  });

  it('422 names every problem by key; 400 for a body that is not a JSON object', async () => {
    // A saved revision of this test's own, so "keeps nothing" is checked against it (issue 20).
    const good = await call(app, 'PUT', '/policy', {
      body: { baseRevision: 0, mode: 'inferred', rules: [rule] },
    });
    expect(good.body.revision).toBe(1);
    const bad = await call(app, 'PUT', '/policy', {
      body: { mode: 'sometimes', rules: [{ ...rule, instruction: 'two\nlines' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { key: string }) => e.key).sort()).toEqual([
      'mode',
      'rules.0.instruction',
    ]);
    expect(bad.body.errors.every((e: { code: string }) => typeof e.code === 'string')).toBe(true);
    expect((await call(app, 'PUT', '/policy', { body: 'mode=inferred' })).status).toBe(400);
    expect((await call(app, 'GET', '/policy')).body).toMatchObject({ revision: 1, mode: 'inferred' });
  });
});
