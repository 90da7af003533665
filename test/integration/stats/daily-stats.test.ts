import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDailyStats } from '../../../src/stats/daily-stats.ts';
import { startDepthSampler } from '../../../src/stats/depth-sampler.ts';
import { readDepthSamples, recordDepthSample } from '../../../src/stats/queue-depth.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { seedDepth, seedHistory } from './seed-history.ts';

const TOKEN = 'stats-test-admin-token-0123456789abcdef';

async function get(app: TestApp, path: string) {
  const res = await fetch(`${app.url}/api${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.status, body: await res.json() };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('issue 17: daily counters for the charts', () => {
  let app: TestApp;
  let llm: FakeLlm;
  beforeEach(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    llm = await startFakeLlm();
  });
  afterEach(async () => {
    await app.close();
    await llm.close();
  });

  it('issue 17: tickets, acknowledgements, tokens by session kind and turn durations count on the day they happened', async () => {
    const seeded = await seedHistory(app.ctx, llm, 4);
    const { status, body } = await get(app, '/stats/daily?days=5');
    expect(status).toBe(200);
    expect(body.days).toHaveLength(5);
    // The oldest day shown is before the seeded history: all zeros.
    expect(body.days[0]).toMatchObject({
      tickets: { opened: 0, done: 0, blocked: 0 },
      ack: { n: 0 },
      tokens: {},
    });
    for (const [i, want] of seeded.entries()) {
      const got = body.days[i + 1];
      expect(got.day).toBe(want.day);
      expect(got.tickets).toEqual(want.tickets);
      expect(got.ack).toEqual({
        n: want.ackMs.length,
        meanMs: Math.round(sum(want.ackMs) / want.ackMs.length),
        maxMs: Math.max(...want.ackMs),
      });
      expect(got.tokens).toEqual(want.tokens);
      expect(want.tokens.executor?.prompt).toBeGreaterThan(0);
      for (const kind of ['main', 'executor']) {
        const ms = want.turnMs[kind] ?? [];
        expect(ms[0]).toBeGreaterThan(0);
        expect(got.turns[kind]).toEqual({ n: 1, meanMs: ms[0], maxMs: ms[0] });
      }
    }
    // Through the owner directly, with the same clock: the same answer.
    const direct = await readDailyStats({ ...app.ctx }, 5);
    expect(direct).toEqual(body.days);
  });

  it('issue 17: days outside 1–90 or not a whole number are a 400 with the reason', async () => {
    for (const q of ['0', '91', '2.5', 'x', '-1', '1e1', ''])
      expect(await get(app, `/stats/daily?days=${q}`), q).toMatchObject({
        status: 400,
        body: { code: 'bad_days' },
      });
    expect((await get(app, '/stats/daily')).body.days).toHaveLength(30);
  });

  it('issue 17: the web process’s sampler stores the depth it finds, once a minute however often it runs', async () => {
    await app.ctx.queues.outbox.add('send', { key: 'nothing' });
    const sampler = startDepthSampler(app.ctx, 20);
    try {
      const history = await waitFor(async () => {
        const h = await readDepthSamples(app.ctx);
        return h.length ? h : undefined;
      }, 'a sample');
      expect(history[0]?.queues.outbox).toEqual({ waiting: 1, active: 0 });
      // Many runs within the minute: still one sample (unless the minute turned meanwhile).
      await new Promise((r) => setTimeout(r, 200));
      expect((await readDepthSamples(app.ctx)).length).toBeLessThanOrEqual(2);
    } finally {
      await sampler.stop();
    }
  });

  it('issue 17: queue depth keeps one sample a minute, capped, beside the depth now', async () => {
    const samples = await seedDepth(app.ctx, 12);
    // Workers are off: a job added now waits, and the depth now shows it.
    await app.ctx.queues.route.add('route', { cardId: 'nothing' });
    // A second process sampling in the same minute adds nothing. (Another moment of that minute:
    // one second later crossed into the next minute when the seed ran in a minute's last second.)
    const again = samples.at(-1);
    const sameMinute = (at: number) => (at % 60_000 < 59_000 ? at + 1000 : at - 1000);
    expect(again && (await recordDepthSample(app.ctx, { ...again, at: sameMinute(again.at) }))).toBe(false);
    const { status, body } = await get(app, '/stats/queue-depth');
    expect(status).toBe(200);
    expect(body.history).toEqual(samples);
    expect(Object.keys(body.now.queues).sort()).toEqual(Object.keys(app.ctx.queues).sort());
    expect(body.now.queues.route).toEqual({ waiting: 1, active: 0 });
    expect(body.now.queues.outbox).toEqual({ waiting: 0, active: 0 });
  });
});
