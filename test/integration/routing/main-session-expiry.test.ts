import { describe, expect, it } from 'vitest';
import { scanKeys } from '../../../src/store/scan-keys.ts';
import { executorSessionId } from '../../../src/tickets/ticket-keys.ts';
import { waitFor } from '../../kit/app.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { localMessage, openTicketIn, send, ticketOpenedBy } from './helpers.ts';

const DAY_S = 24 * 3600;

describe('issue 31: a main turn’s session expires like a closed ticket’s transcript', () => {
  const w = useModelApp();

  it('every session:main-… key a main turn wrote has a RETENTION_DAYS TTL; the open ticket’s executor transcript has none', async () => {
    w.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    const chat = `expiry-${process.pid}-${Date.now()}`;
    await openTicketIn(w.app.ctx, chat);
    const id = await send(w.app.ctx, localMessage('rename the settings module', { chat }));
    await waitFor(() => w.llm.requests.some((r) => roleOf(r) === 'main'), 'the main turn');
    const ticket = await ticketOpenedBy(w.app.ctx, id);
    const { redis, keys, config } = w.app.ctx;
    const mainSessionKeys = async () => {
      const found: string[] = [];
      for await (const page of scanKeys(redis, keys.session('main-'))) found.push(...page);
      return found;
    };
    // The turn's last write (its end) is in by the time its ticket's executor has a transcript.
    await waitFor(
      async () => (await redis.exists(keys.transcript(executorSessionId(ticket)))) === 1,
      'the executor',
    );
    const mainKeys = await mainSessionKeys();
    expect(mainKeys.some((key) => key.endsWith(':transcript'))).toBe(true);
    const retention = Math.ceil(config.RETENTION_DAYS * DAY_S);
    for (const key of mainKeys) {
      const ttl = await redis.ttl(key);
      expect(ttl, key).toBeGreaterThan(retention - 120);
      expect(ttl, key).toBeLessThanOrEqual(retention);
    }
    expect(await redis.ttl(keys.transcript(executorSessionId(ticket)))).toBe(-1);
  });
});
