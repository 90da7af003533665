import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, openAll, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, send } from './helpers.ts';

describe('a pause arriving mid-turn (R-D2)', () => {
  let llm: FakeLlm;
  let app: TestApp;
  const TOKEN = 'admin-token-123';
  beforeAll(async () => {
    llm = await startFakeLlm();
    app = await startTestApp({ LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k', ADMIN_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
  });

  it('R-D2: a pause between two steps stops the turn before its next tool call and model request; nothing is sent', async () => {
    llm.respond(async (req) => {
      if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
      if (req.messages.at(-1)?.role === 'tool') return text('should never be asked');
      // A person pauses the ticket while the model is thinking about its first step.
      const res = await fetch(`${app.url}/api/tickets/T1/pause`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      if (!res.ok) throw new Error(`pause answered ${res.status}`);
      return toolCalls(['reply', { to: cardsIn(req)[0], text: 'On it: the flaky checkout test.' }]);
    });
    await send(app.ctx, localMessage('please fix the flaky checkout test'));
    const job = await waitFor(
      async () =>
        (await app.ctx.queues.executor.getJobs(['completed'])).find((j) => j.returnvalue?.kind === 'stopped'),
      'the executor turn to stop',
    );
    expect(job.returnvalue).toMatchObject({ kind: 'stopped', reason: 'paused', before: 'tool_call' });
    expect(llm.requests.filter((r) => roleOf(r) === 'executor')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 200));
    // Only the live status message (issue 9) shows the pause; no reply went out.
    const replies = (await botMessages(app.ctx)).filter((m) => m.op === 'local.reply');
    expect(replies).toEqual([]);
    // The turn's cards wait for the resume.
    expect(await app.ctx.redis.llen(app.ctx.keys.ticketInbox('T1'))).toBe(1);
  });
});
