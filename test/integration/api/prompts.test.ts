import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { call, TOKEN } from './client.ts';

const draft = (baseRevision: number, about: string, extra: object = {}) => ({
  baseRevision,
  team: { about },
  overrides: {},
  skills: [],
  ...extra,
});

describe('/api/prompts (R-E1, R-E6, R-F1, R-F2, R-F4)', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
  });
  afterEach(() => app.close());

  it('GET lists every section with its default, override, defaultChanged and diff, the team paragraphs, skills and revision 0', async () => {
    const { status, body } = await call(app, 'GET', '/prompts');
    expect(status).toBe(200);
    expect(body.revision).toBe(0);
    const harness = body.sections.find((s: { key: string }) => s.key === 'harness');
    expect(harness).toMatchObject({ override: null, defaultChanged: false, diff: null });
    expect(harness.default.length).toBeGreaterThan(20);
    expect(body.team).toEqual({});
    expect(body.skills.builtin.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['github', 'feishu']),
    );
  });

  it('R-F1/R-F2: PUT saves a version (source and who from the headers); a stale base is 409 and keeps nothing', async () => {
    const saved = await call(app, 'PUT', '/prompts', {
      body: draft(0, 'We build Switchyard.', {
        overrides: { harness: { text: 'Our own harness notes.' } },
      }),
      headers: { 'x-switchyard-source': 'panel', 'x-switchyard-who': 'alice' },
    });
    expect(saved).toEqual({ status: 200, body: { revision: 1, dropped: [] } });
    const stale = await call(app, 'PUT', '/prompts', { body: draft(0, 'A late draft.') });
    expect(stale).toEqual({
      status: 409,
      body: { error: 'conflict', code: 'conflict', currentRevision: 1 },
    });
    const view = (await call(app, 'GET', '/prompts')).body;
    expect(view.revision).toBe(1);
    expect(view.team).toEqual({ about: 'We build Switchyard.' });
    const harness = view.sections.find((s: { key: string }) => s.key === 'harness');
    expect(harness.override.text).toBe('Our own harness notes.');
    const versions = (await call(app, 'GET', '/prompts/versions')).body.versions;
    expect(
      versions.map((v: { revision: number; source: string; who: string }) => [v.revision, v.source, v.who]),
    ).toEqual([[1, 'panel', 'alice']]);
  });

  it('R-F4: PUT with problems is 422 with every error by key and code, and writes nothing', async () => {
    const head = (await call(app, 'GET', '/prompts')).body.revision;
    const bad = await call(app, 'PUT', '/prompts', {
      body: draft(head, 'x', {
        overrides: { 'no/such': { text: 'a' }, 'runtime/policy': { text: 'no placeholders' } },
        skills: [{ name: 'github', text: 'mine' }],
        colour: 'blue',
      }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid');
    const byKey = Object.fromEntries(
      bad.body.errors.map((e: { key: string; code: string }) => [e.key, e.code]),
    );
    expect(byKey).toMatchObject({
      colour: 'unknown_key',
      'overrides.no/such': 'unknown_section',
      'overrides.runtime/policy': 'missing_placeholder',
      'skills.0.name': 'reserved_skill_name',
    });
    for (const e of bad.body.errors) expect(typeof e.message).toBe('string');
    expect((await call(app, 'GET', '/prompts')).body.revision).toBe(head);
  });

  it('issue 14: fields of the wrong JSON type are 422 by key, never a 500, and write nothing', async () => {
    const head = (await call(app, 'GET', '/prompts')).body.revision;
    const shapes = [
      { skills: { name: 'x', text: 'y' } },
      { skills: 'text' },
      { team: 'about us' },
      { team: ['a'] },
      { overrides: [{ text: 'x' }] },
      { overrides: { harness: 'plain text' } },
      { skills: [null, 3, 'x'] },
    ];
    for (const shape of shapes) {
      const r = await call(app, 'PUT', '/prompts', { body: { baseRevision: head, ...shape } });
      expect(r.status, JSON.stringify(shape)).toBe(422);
      expect(r.body.code).toBe('invalid');
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
    expect((await call(app, 'GET', '/prompts')).body.revision).toBe(head);
  });

  it('400 for a body that is not JSON or not an object', async () => {
    for (const body of ['{"baseRevision": 1,', '[1,2]', '"text"']) {
      const r = await call(app, 'PUT', '/prompts', { body });
      expect(r.status).toBe(400);
      expect(r.body.code).toMatch(/^(malformed_json|bad_request)$/);
      expect(r.body.error).toBeTruthy();
    }
    expect((await call(app, 'POST', '/prompts/restore', { body: '{' })).status).toBe(400);
  });

  it('GET /prompts/versions/:rev answers one whole version, revision 0 as the defaults, 404 when unknown', async () => {
    expect(await call(app, 'PUT', '/prompts', { body: draft(0, 'We build Switchyard.') })).toMatchObject({
      status: 200,
    });
    expect((await call(app, 'GET', '/prompts/versions/1')).body).toMatchObject({
      revision: 1,
      config: { team: { about: 'We build Switchyard.' } },
    });
    expect((await call(app, 'GET', '/prompts/versions/0')).body).toMatchObject({
      revision: 0,
      predecessor: null,
    });
    expect((await call(app, 'GET', '/prompts/versions/99')).status).toBe(404);
    expect((await call(app, 'GET', '/prompts/versions/abc')).body).toMatchObject({ code: 'not_found' });
  });

  it('R-F1: restore of a revision or of the defaults creates a new version; unknown is 404, stale is 409', async () => {
    // Revision 1 is this test's own first text; the second text makes head 2 (issue 20).
    expect((await call(app, 'PUT', '/prompts', { body: draft(0, 'We build Switchyard.') })).status).toBe(200);
    expect((await call(app, 'PUT', '/prompts', { body: draft(1, 'Second text.') })).status).toBe(200);
    const head = 2;
    expect((await call(app, 'GET', '/prompts')).body.team).toEqual({ about: 'Second text.' });
    const back = await call(app, 'POST', '/prompts/restore', { body: { baseRevision: head, revision: 1 } });
    expect(back).toEqual({ status: 200, body: { revision: head + 1, dropped: [] } });
    expect((await call(app, 'GET', '/prompts')).body.team).toEqual({ about: 'We build Switchyard.' });
    const defaults = await call(app, 'POST', '/prompts/restore', {
      body: { baseRevision: head + 1, defaults: true },
    });
    expect(defaults.body.revision).toBe(head + 2);
    expect((await call(app, 'GET', '/prompts')).body.team).toEqual({});
    const versions = (await call(app, 'GET', '/prompts/versions')).body.versions;
    expect(versions.slice(0, 2).map((v: { restoredFrom: unknown }) => v.restoredFrom)).toEqual([
      'defaults',
      1,
    ]);
    expect(versions[0].source).toBe('api');
    expect(versions[0].who).toBe('admin');
    expect(
      (await call(app, 'POST', '/prompts/restore', { body: { baseRevision: head + 2, revision: 77 } }))
        .status,
    ).toBe(404);
    expect(
      (await call(app, 'POST', '/prompts/restore', { body: { baseRevision: 0, revision: 1 } })).body,
    ).toEqual({
      error: 'conflict',
      code: 'conflict',
      currentRevision: head + 2,
    });
    expect((await call(app, 'POST', '/prompts/restore', { body: { baseRevision: head + 2 } })).status).toBe(
      422,
    );
  });
});
