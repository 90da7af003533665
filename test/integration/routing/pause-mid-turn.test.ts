import { describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { cardsIn, continues, openAll, roleOf, ticketOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send, ticketOpenedBy } from './helpers.ts';

describe('a pause arriving mid-turn (R-D2)', () => {
  const TOKEN = 'admin-token-123-0123456789abcdefghijkl';
  const w = useModelApp({ ADMIN_TOKEN: TOKEN });

  it('R-D2: a pause between two steps stops the turn before its next tool call and model request; nothing is sent', async () => {
    let paused = '';
    w.llm.respond(async (req) => {
      if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
      if (continues(req)) return text('should never be asked');
      // A person pauses the ticket while the model is thinking about its first step.
      paused = ticketOf(req) ?? '';
      const res = await fetch(`${w.app.url}/api/tickets/${paused}/pause`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      if (!res.ok) throw new Error(`pause answered ${res.status}`);
      return toolCalls(['reply', { to: cardsIn(req)[0], text: 'On it: the flaky checkout test.' }]);
    });
    const request = await send(w.app.ctx, localMessage('please fix the flaky checkout test'));
    const job = await waitFor(
      async () =>
        (await w.app.ctx.queues.executor.getJobs(['completed'])).find(
          (j) => j.returnvalue?.kind === 'stopped',
        ),
      'the executor turn to stop',
    );
    expect(job.returnvalue).toMatchObject({ kind: 'stopped', reason: 'paused', before: 'tool_call' });
    expect(w.llm.requests.filter((r) => roleOf(r) === 'executor')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 200));
    // Only the live status message (issue 9) shows the pause; no reply went out.
    const replies = (await botMessages(w.app.ctx)).filter((m) => m.op === 'local.reply');
    expect(replies).toEqual([]);
    // The paused ticket is the one the request opened, and the turn's cards wait for the resume.
    expect(paused).toBe(await ticketOpenedBy(w.app.ctx, request));
    expect(await w.app.ctx.redis.llen(w.app.ctx.keys.ticketInbox(paused))).toBe(1);
  });
});
