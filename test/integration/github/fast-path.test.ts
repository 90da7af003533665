import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/web/app.ts';
import type { TestApp } from '../../kit/app.ts';
import type { FakeGitHub } from '../../kit/fake-github.ts';
import { closeGitHubTestWorld, startGitHubTestWorld } from '../../kit/github-app.ts';
import { githubPayloads as P, signGitHubBody } from '../../kit/github-webhook.ts';

const SECRET = 'gh-webhook-secret';

/**
 * Issue 18: the `node:http` fast path in front of Hono answers the webhook routes exactly as the
 * Hono routes do — same statuses, same reasons, same counters — and leaves every other request to
 * Hono.
 */
describe('webhook fast path (issue 18)', () => {
  let gh: FakeGitHub;
  let app: TestApp;
  beforeEach(async () => {
    ({ gh, app } = await startGitHubTestWorld(SECRET));
  });
  afterEach(() => closeGitHubTestWorld({ gh, app }));

  const rejected = async (status: string) =>
    (await app.ctx.metrics.rejected.get()).values.find(
      (v) => v.labels.source === 'github' && v.labels.status === status,
    )?.value ?? 0;

  it('refusals match the Hono route: status, body and the rejected counter', async () => {
    const hono = createApp(app.ctx);
    const body = JSON.stringify(P.mentionComment({ commentId: 7 }));
    const cases: Record<string, string>[] = [
      { 'x-github-event': 'issue_comment', 'x-github-delivery': 'd-1', 'x-hub-signature-256': 'sha256=00' },
      { 'x-hub-signature-256': signGitHubBody(SECRET, body) },
      { 'x-github-event': 'issue_comment', 'x-github-delivery': 'd-2' },
    ];
    for (const headers of cases) {
      const before401 = await rejected('401');
      const before400 = await rejected('400');
      const init = { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } };
      const fast = await fetch(`${app.url}/webhooks/github`, init);
      const viaHono = await hono.request('/webhooks/github', init);
      expect(fast.status).toBe(viaHono.status);
      expect(fast.headers.get('content-type')).toBe(viaHono.headers.get('content-type'));
      expect(await fast.json()).toEqual(await viaHono.json());
      const code = String(fast.status);
      expect([401, 400]).toContain(fast.status);
      // One count from each path.
      expect((await rejected(code)) - (code === '401' ? before401 : before400)).toBe(2);
    }
    expect(await app.ctx.redis.zcard(app.ctx.keys.cardsByTime())).toBe(0);
  });

  it('a query string still reaches the route; other methods and a trailing slash go to Hono (404)', async () => {
    const body = JSON.stringify(P.mentionComment({ commentId: 8 }));
    const headers = {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': 'd-query',
      'x-hub-signature-256': signGitHubBody(SECRET, body),
    };
    const res = await fetch(`${app.url}/webhooks/github?from=test`, { method: 'POST', body, headers });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ ok: true, status: 'new' });
    expect((await fetch(`${app.url}/webhooks/github`)).status).toBe(404);
    expect((await fetch(`${app.url}/webhooks/github/`, { method: 'POST', body, headers })).status).toBe(404);
  });
});
