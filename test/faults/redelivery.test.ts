import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cardIdFor } from '../../src/cards/build-card.ts';
import { loadCard } from '../../src/cards/ingest.ts';
import { redeliverMissed } from '../../src/safety/redeliver-missed.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../kit/fake-github.ts';
import { githubPayloads } from '../kit/github-webhook.ts';

const SECRET = 'redelivery-secret';
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

describe('missed GitHub deliveries are asked for again in App mode (issue 8)', () => {
  let gh: FakeGitHub;
  let app: TestApp;
  const missed = 'aaaaaaaa-0000-4000-8000-000000000001';
  const delivered = 'aaaaaaaa-0000-4000-8000-000000000002';
  beforeEach(async () => {
    gh = await startFakeGitHub({ appSlug: 'switchyard' });
    // While the bot was down: one delivery failed (502), another had arrived before (200).
    const mention = (commentId: number) =>
      githubPayloads.mentionComment({ author: 'ada', body: '@switchyard[bot] please fix', commentId });
    gh.hooks.add({ event: 'issue_comment', payload: mention(901), guid: missed, statusCode: 502 });
    gh.hooks.add({ event: 'issue_comment', payload: mention(902), guid: delivered, statusCode: 200 });
    app = await startTestApp({
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_APP_ID: '4242',
      GITHUB_PRIVATE_KEY: PEM,
      GITHUB_API_URL: gh.url,
    });
    gh.hooks.setWebhook(app.url, SECRET);
  });
  afterEach(async () => {
    await app?.close();
    await gh?.close();
  });

  it('a delivery that failed while the bot was down arrives after it starts, once; one that arrived is left alone', async () => {
    const cardId = cardIdFor('github', missed);
    const card = await waitFor(() => loadCard(app.ctx, cardId), 'the missed delivery’s card', 15_000);
    expect(card).toMatchObject({
      kind: 'issue_comment',
      eventId: missed,
      request: true,
      origin: { commentId: 901 },
    });
    const attempts = gh.callsTo('POST', /^\/app\/hook\/deliveries\/\d+\/attempts$/);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.path).toBe(
      `/app/hook/deliveries/${gh.hooks.deliveries.find((d) => d.guid === missed)?.id}/attempts`,
    );
    expect(attempts[0]?.auth).toMatch(/^bearer ey/i);
    expect(await loadCard(app.ctx, cardIdFor('github', delivered))).toBeUndefined();
    await waitFor(
      () => gh.hooks.deliveries.find((d) => d.guid === missed && d.redelivery),
      'the redelivery logged',
    );
    expect(gh.hooks.deliveries.find((d) => d.guid === missed && d.redelivery)?.status_code).toBe(202);
  });

  it('later sweeps ask for nothing already seen or already asked for', async () => {
    // "Later": the start-up sweep has asked for the delivery missed while the bot was down. Under
    // load it may not have yet, and a sweep here would then rightly ask for that one too.
    await waitFor(
      () => gh.callsTo('POST', /\/attempts$/).length === 1,
      'the start-up sweep’s redelivery',
      15_000,
    );
    gh.hooks.add({
      event: 'issue_comment',
      payload: githubPayloads.mentionComment({ commentId: 903 }),
      statusCode: 500,
    });
    const before = gh.callsTo('POST', /\/attempts$/).length;
    // The start-up sweeps may still be running: together, every sweep asks for the new one once.
    const asked = (await redeliverMissed(app.ctx)) + (await redeliverMissed(app.ctx));
    expect(asked).toBeLessThanOrEqual(1);
    await waitFor(() => gh.callsTo('POST', /\/attempts$/).length === before + 1, 'one more redelivery');
    await new Promise((r) => setTimeout(r, 300));
    expect(gh.callsTo('POST', /\/attempts$/).length).toBe(before + 1);
  });
});
