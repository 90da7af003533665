import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';

const SECRET = 'id-secret';

async function authorTypeOf(app: TestApp, login: string, body: string) {
  const res = await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment({ author: login, body }), {
    secret: SECRET,
  });
  expect(res.status).toBe(202);
  const { card } = (await res.json()) as { card: string };
  return loadCard(app.ctx, card);
}

describe('R-A2: without GITHUB_BOT_LOGIN the bot learns its login from the API, once', () => {
  let gh: FakeGitHub;
  const apps: TestApp[] = [];
  beforeEach(async () => {
    gh = await startFakeGitHub({ botLogin: 'token-bot', appSlug: 'yard-app', token: 'ghp_id' });
  });
  afterEach(async () => {
    for (const a of apps) await a.close();
    await gh.close();
  });

  it('token mode: GET /user names the bot; its comments are self and @token-bot is a mention', async () => {
    const app = await startTestApp(
      { GITHUB_WEBHOOK_SECRET: SECRET, GITHUB_TOKEN: 'ghp_id', GITHUB_API_URL: gh.url },
      { workers: false },
    );
    apps.push(app);
    expect((await authorTypeOf(app, 'token-bot', 'done'))?.author.type).toBe('self');
    expect(await authorTypeOf(app, 'ada', '@token-bot fix it')).toMatchObject({ request: true });
    expect(gh.callsTo('GET', '/user')).toHaveLength(1);
  });

  it('App mode: GET /app with an App JWT names the bot <slug>[bot]', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const app = await startTestApp(
      {
        GITHUB_WEBHOOK_SECRET: SECRET,
        GITHUB_APP_ID: '42',
        GITHUB_PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
        GITHUB_API_URL: gh.url,
      },
      { workers: false },
    );
    apps.push(app);
    expect((await authorTypeOf(app, 'yard-app[bot]', 'done'))?.author.type).toBe('self');
    expect(await authorTypeOf(app, 'ada', '@yard-app please')).toMatchObject({ request: true });
    expect(gh.callsTo('GET', '/app')[0]?.auth).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/);
  });
});
