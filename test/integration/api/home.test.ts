import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { type GitHubWorld, startGitHubWorld } from '../../faults/github-world.ts';
import { waitFor } from '../../kit/app.ts';
import { failure } from '../../kit/fake-llm.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { ticketOpenedBy } from '../routing/helpers.ts';
import { call, TOKEN } from './client.ts';

/**
 * Issue 33 item 1: `GET /api/home` through the real server and Redis, its figures from what
 * happened — a signed GitHub webhook, the scripted model's answers and failures, a delivery
 * GitHub refused — and the doctor's findings with their fixes (`SANDBOX=none` is one).
 */
describe('issue 33 item 1: GET /api/home', () => {
  let w: GitHubWorld;
  beforeEach(async () => {
    w = await startGitHubWorld({ ADMIN_TOKEN: TOKEN, SANDBOX: 'none' });
  }, 60_000);
  afterEach(async () => w?.close());

  const home = async (query = '') => {
    const { status, body } = await call(w.app, 'GET', `/home${query}`);
    expect(status).toBe(200);
    return body;
  };

  it('a webhook, a model round trip and a refused delivery show as channels, model, tickets and deliveries', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const before = Date.now();
    const ticketId = await w.open('ada', '@switchyard-bot please fix the login redirect');
    // A comment of the ticket GitHub refuses for good.
    w.gh.failNext({ method: 'POST', path: /\/issues\/99\/comments$/, status: 422 });
    const key = `home-test:${ticketId}:notice`;
    await enqueueEffect(w.app.ctx, {
      key,
      ticketId,
      effect: { op: 'github.comment', repo: 'acme/widgets', number: 99, body: 'Ready for review.' },
    });
    await waitFor(
      async () => (await w.app.ctx.queues.outbox.getJob(outboxJobId(key)))?.finishedOn !== undefined,
      'the refused delivery to fail',
    );

    const body = await home();
    const channel = (name: string) => body.channels.find((c: { name: string }) => c.name === name);
    expect(channel('github')).toMatchObject({ on: true, reachable: true, eventsLastHour: 1 });
    expect(channel('github').lastEventAt).toBeGreaterThanOrEqual(before);
    expect(channel('feishu')).toEqual({
      name: 'feishu',
      on: false,
      reachable: null,
      lastEventAt: null,
      eventsLastHour: 0,
    });
    expect(channel('local')).toMatchObject({ on: true, eventsLastHour: 0, lastEventAt: null });

    expect(body.model.last).toMatchObject({ ok: true, model: 'deepseek-flash', session: 'executor' });
    expect(body.model.last.at).toBeGreaterThanOrEqual(before);
    expect(body.model.last.ms).toBeGreaterThanOrEqual(0);
    expect(body.model.last.reason).toBeUndefined();

    const state = (await getTicket(w.app.ctx, ticketId))?.state ?? '';
    expect(body.tickets).toMatchObject({ byState: { [state]: 1 }, counted: 1 });
    expect(body.deliveries.tickets).toContainEqual(expect.objectContaining({ ticketId, failed: 1 }));
    expect(body.deliveries.failed).toBeGreaterThanOrEqual(1);
    expect(body.queues.find((q: { name: string }) => q.name === 'outbox')).toMatchObject({ failed: 1 });

    // The doctor's problems come first, each with its fix; the model is not asked on a poll.
    const sandbox = body.doctor.findings.find((f: { check: string }) => f.check === 'sandbox');
    expect(sandbox).toMatchObject({ status: 'problem', fix: expect.stringContaining('SANDBOX') });
    expect(body.doctor.findings[0].status).toBe('problem');
    const requests = w.llm.requests.length;
    const again = await home();
    expect(again.doctor.at).toBe(body.doctor.at);
    expect(w.llm.requests.length).toBe(requests);
    // In the language asked for.
    const zh = await home('?lang=zh-CN');
    const zhSandbox = zh.doctor.findings.find((f: { check: string }) => f.check === 'sandbox');
    expect(zhSandbox.fix).not.toBe(sandbox.fix);
  });

  it('a model request that failed shows as failed, with the provider’s reason', async () => {
    w.llm.respond(() => failure(400));
    const card = await w.comment('ada', '@switchyard-bot please fix the login redirect');
    const ticketId = await ticketOpenedBy(w.app.ctx, card);
    const last = await waitFor(async () => {
      const { model } = await home();
      return model.last && !model.last.ok ? model.last : undefined;
    }, `${ticketId}'s failed model request`);
    expect(last).toMatchObject({ ok: false, session: 'executor', reason: expect.stringContaining('400') });
  });

  it('needs the admin token like every /api route', async () => {
    expect((await call(w.app, 'GET', '/home', { token: null })).status).toBe(401);
  });
});
