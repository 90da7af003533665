import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCard } from '../../../src/router/route-card.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { freshPrefix } from '../../kit/redis.ts';
import { ackAll, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { localMessage, send } from './helpers.ts';

describe('work waiting at start-up (nothing lost)', () => {
  let llm: FakeLlm;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await llm.close();
  });

  it('candidates left waiting by a process that died before queueing a main turn are routed when workers start', async () => {
    const env = { KEY_PREFIX: freshPrefix(), LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' };
    const web = await startTestApp(env, { workers: false });
    apps.push(web);
    const card = await send(web.ctx, localMessage('please add a README badge'));
    await routeCard(web.ctx, card);
    // The process "died" after placing the card: no main-turn job survives.
    await web.ctx.queues.main.obliterate({ force: true });
    await web.ctx.redis.del(web.ctx.keys.mainScheduled());
    expect(await web.ctx.redis.zscore(web.ctx.keys.candidates(), card)).not.toBeNull();

    apps.push(await startTestApp(env));
    await waitFor(
      () => llm.requests.some((r) => roleOf(r) === 'executor' && JSON.stringify(r.messages).includes(card)),
      'the recovered request to reach an executor',
    );
  });
});
