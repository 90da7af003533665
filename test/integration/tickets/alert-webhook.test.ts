import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEffect, outboxJobId } from '../../../src/outbox/enqueue.ts';
import { ALERTS_PER_MINUTE, alertOnce } from '../../../src/safety/alert-webhook.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';

/**
 * Issue 49 item 3 (alerts): a delivery failed for good reaches the operators' webhook once, with
 * a link to the ticket's panel page; the same cause never twice; a storm stops at the minute's
 * limit. GitHub is off here, so a GitHub comment fails for good at once.
 */
describe('issue 49: alerts to an operators’ webhook', () => {
  let app: TestApp;
  let hook: Server;
  const got: Record<string, unknown>[] = [];
  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`;
    app = await startTestApp({ ALERT_WEBHOOK_URL: url, PUBLIC_URL: 'https://bot.example.com/' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await new Promise((r) => hook?.close(r));
  });

  it('a delivery failed for good is told once, with its ticket’s page; a storm stops at the minute’s limit', {
    timeout: 30_000,
  }, async () => {
    const key = 'alert-e2e:T7:notice';
    await enqueueEffect(app.ctx, {
      key,
      ticketId: 'T7',
      effect: { op: 'github.comment', repo: 'acme/app', number: 3, body: 'Ready for review.' },
    });
    await waitFor(async () => (got.length ? true : undefined), 'the alert');
    expect(got[0]).toMatchObject({
      kind: 'delivery_failed',
      ticketId: 'T7',
      url: 'https://bot.example.com/panel/#/tickets/T7',
      text: expect.stringContaining('failed for good: channel github is off'),
    });
    expect((await app.ctx.queues.outbox.getJob(outboxJobId(key)))?.failedReason).toContain('is off');
    // The same cause again (a retry that fails too) is not told twice.
    await alertOnce(app.ctx, { kind: 'delivery_failed', cause: key, ticketId: 'T7', text: 'again' });
    expect(got).toHaveLength(1);

    // A storm stops at the minute's limit (one minute, long past: its counter is its own).
    const minute = { ...app.ctx, now: () => 60_000 * 7 };
    for (let i = 0; i < ALERTS_PER_MINUTE + 5; i++)
      await alertOnce(minute, { kind: 'blocked', cause: `storm-${i}`, ticketId: `T${i}`, text: 'blocked' });
    expect(got).toHaveLength(1 + ALERTS_PER_MINUTE);
    expect(got.at(-1)).toMatchObject({ kind: 'blocked', text: 'blocked', at: 420_000 });
  });
});
