import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { appJwt } from '../../../src/channels/github/app-auth.ts';
import { installationTokens } from '../../../src/channels/github/installation-token.ts';
import type { Effect } from '../../../src/outbox/effect.ts';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';

const SECRET = 'app-mode-secret';
const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString();
const JWT = /^bearer [\w-]+\.[\w-]+\.[\w-]+$/;
const INSTALLATION = /^token ghs_[0-9a-f]+$/;

describe('GitHub App mode: repository calls use installation tokens', () => {
  let gh: FakeGitHub;
  let llm: FakeLlm;
  let app: TestApp;
  beforeEach(async () => {
    // The fake's own token is never given to the product: repo routes accept only minted tokens.
    gh = await startFakeGitHub({ appSlug: 'yard', token: 'ghp_not_configured' });
    // Every App JWT must verify under the App's key, as on GitHub.
    gh.registerAppKey('42', PRIVATE_KEY);
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    app = await startTestApp({
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_APP_ID: '42',
      GITHUB_PRIVATE_KEY: PRIVATE_KEY,
      GITHUB_API_URL: gh.url,
      LLM_BASE_URL: llm.baseURL,
      LLM_API_KEY: 'test-key',
    });
  });
  afterEach(async () => {
    await app.close();
    await llm.close();
    await gh.close();
  });

  const mints = () => gh.callsTo('POST', /^\/app\/installations\/\d+\/access_tokens$/);
  /** One delivered effect mints this test's first token for acme/widgets (issue 20: its own). */
  async function mintFirstToken() {
    expect(
      await deliver('first', { op: 'github.comment', repo: 'acme/widgets', number: 7, body: 'first' }),
    ).toBe('completed');
    expect(mints()).toHaveLength(1);
  }
  async function deliver(key: string, effect: Effect) {
    await enqueueEffect(app.ctx, { key, effect });
    const job = await waitFor(() => app.ctx.queues.outbox.getJob(outboxJobId(key)), 'the job');
    await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), `job ${key}`, 10_000);
    return job.getState();
  }

  it('a signed mention gets 👀 and an acknowledgement, both sent with the installation token; the permission look-up uses it too', async () => {
    gh.setPermission('acme/widgets', 'ada', 'maintain');
    const res = await sendGitHubEvent(
      app.url,
      'issue_comment',
      P.mentionComment({ commentId: 501, body: '@yard please fix the login loop' }),
      { secret: SECRET },
    );
    expect(res.status).toBe(202);
    const { card } = (await res.json()) as { card: string };
    await waitFor(() => gh.reactions.find((r) => r.targetId === 501 && r.content === 'eyes'), 'the 👀');
    const ack = await waitFor(
      () => gh.comments.find((c) => c.repo === 'acme/widgets' && c.body.startsWith(`On it: ${card}.`)),
      'the acknowledgement',
      20_000,
    );
    expect(ack.number).toBe(7);
    expect((await loadCard(app.ctx, card))?.author.permission).toBe('maintain');

    const [react] = gh.callsTo('POST', '/repos/acme/widgets/issues/comments/501/reactions');
    const [comment] = gh.callsTo('POST', '/repos/acme/widgets/issues/7/comments');
    const [permission] = gh.callsTo('GET', '/repos/acme/widgets/collaborators/ada/permission');
    expect(react?.auth).toMatch(INSTALLATION);
    expect(comment?.auth).toMatch(INSTALLATION);
    expect(permission?.auth).toMatch(INSTALLATION);
    // The installation look-up and the mint are App-level calls, made with the App JWT.
    expect(gh.callsTo('GET', '/repos/acme/widgets/installation')[0]?.auth).toMatch(JWT);
    expect(mints()[0]?.auth).toMatch(JWT);
    expect(gh.calls.filter((c) => c.status === 401)).toEqual([]);
  });

  it('the token is minted once per repository and use (issue 13) and reused for later effects', async () => {
    await mintFirstToken();
    const before = mints().length;
    const effects: Effect[] = [
      { op: 'github.comment', repo: 'acme/widgets', number: 8, body: 'one' },
      { op: 'github.comment', repo: 'acme/widgets', number: 9, body: 'two' },
      { op: 'github.react', repo: 'acme/widgets', target: 'issue', id: 8, content: 'rocket' },
    ];
    for (const [i, e] of effects.entries()) expect(await deliver(`reuse-${i}`, e)).toBe('completed');
    expect(mints()).toHaveLength(before);
    const used = new Set(
      gh.calls.filter((c) => /^\/repos\/acme\/widgets\/issues/.test(c.path)).map((c) => c.auth),
    );
    expect(used.size).toBe(1);

    // Another installation's repository gets a token of its own.
    gh.apps.setInstallation('other/tools', 2);
    expect(
      await deliver('reuse-other', { op: 'github.comment', repo: 'other/tools', number: 1, body: 'x' }),
    ).toBe('completed');
    expect(mints().map((c) => c.path)).toContain('/app/installations/2/access_tokens');
    expect(gh.callsTo('POST', '/repos/other/tools/issues/1/comments')[0]?.auth).not.toBe([...used][0]);
  });

  it('a token GitHub refuses (401) is replaced once and the effect still lands once', async () => {
    await mintFirstToken();
    const stale = gh.apps.tokens.filter((t) => t.installationId === 1).at(-1);
    if (!stale) throw new Error('no token minted yet');
    gh.apps.revoke(stale.token);
    const before = mints().length;
    expect(
      await deliver('after-401', { op: 'github.comment', repo: 'acme/widgets', number: 10, body: 'again' }),
    ).toBe('completed');
    const posts = gh.callsTo('POST', '/repos/acme/widgets/issues/10/comments');
    expect(posts.map((c) => c.status)).toEqual([401, 201]);
    expect(posts[0]?.auth).toBe(`token ${stale.token}`);
    expect(posts[1]?.auth).toMatch(INSTALLATION);
    expect(posts[1]?.auth).not.toBe(posts[0]?.auth);
    expect(mints()).toHaveLength(before + 1);
    expect(gh.comments.filter((c) => c.number === 10)).toHaveLength(1);
  });

  it('a cached token is replaced a few minutes before its expires_at, without waiting for a 401', async () => {
    const tokens = installationTokens({ baseUrl: gh.url, appId: '42', privateKey: PRIVATE_KEY });
    const before = mints().length;
    gh.apps.ttlMs = 4 * 60_000; // minted with four minutes left: inside the refresh margin
    const short = await tokens.tokenFor('acme/widgets');
    gh.apps.ttlMs = 3600_000;
    const fresh = await tokens.tokenFor('acme/widgets');
    expect(fresh).not.toBe(short);
    expect(await tokens.tokenFor('ACME/widgets')).toBe(fresh);
    // Two callers that both saw the token refused share one new mint.
    const [a, b] = await Promise.all([
      tokens.tokenFor('acme/widgets', fresh),
      tokens.tokenFor('acme/widgets', fresh),
    ]);
    expect(a).toBe(b);
    expect(a).not.toBe(fresh);
    expect(mints()).toHaveLength(before + 3);
  });
  it('issue 16: the fake refuses a token mint whose App JWT another key signed, or that is no JWT, as GitHub does (401)', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString();
    const mint = (auth: string) =>
      fetch(`${gh.url}/app/installations/1/access_tokens`, {
        method: 'POST',
        headers: { authorization: auth },
      });
    expect((await mint(`Bearer ${await appJwt('42', other)}`)).status).toBe(401);
    expect((await mint(`Bearer ${await appJwt('43', PRIVATE_KEY)}`)).status).toBe(401);
    expect((await mint('token ghp_not_configured')).status).toBe(401);
    expect((await mint(`Bearer ${await appJwt('42', PRIVATE_KEY)}`)).status).toBe(201);
  });
});
