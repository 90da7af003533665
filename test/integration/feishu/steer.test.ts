import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPaused } from '../../../src/tickets/pause.ts';
import { waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { groupMention, sendFeishuEvent, threadReply } from '../../kit/feishu-webhook.ts';
import { ackAll, openAll, roleOf, scriptedModel } from '../../kit/scripted-model.ts';
import { onlyTicket } from '../routing/helpers.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness } from './harness.ts';

describe('R-A5, R-D2: who may pause and resume from Feishu', () => {
  let h: FeishuHarness;
  let llm: FakeLlm;
  const send = async (event: unknown) => {
    const res = await sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY });
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  };
  const settle = () => new Promise((r) => setTimeout(r, 400));
  beforeEach(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    h = await startFeishuHarness({
      ALLOWED_USERS: 'feishu:ou_alice',
      LLM_BASE_URL: llm.baseURL,
      LLM_API_KEY: 'k',
    });
  });
  afterEach(async () => {
    await h.close();
    await llm.close();
  });

  it('an outsider in the thread can neither pause nor resume; the requester can', async () => {
    await send(
      groupMention('please fix the export button', h.feishu.bot.openId, {
        senderOpenId: 'ou_alice',
        messageId: 'om_req',
        chatId: 'oc_team',
      }),
    );
    const ack = await waitFor(
      () => h.feishu.messages.find((m) => m.parentId === 'om_req' && m.msgType === 'post'),
      'the acknowledgement',
    );
    const ticket = await onlyTicket(h.app.ctx);
    const inThread = (text: string, who: string) =>
      threadReply(text, 'om_req', { senderOpenId: who, chatId: 'oc_team', parentId: ack.messageId });

    await send(inThread('/pause', 'ou_mallory'));
    await settle();
    expect(await isPaused(h.app.ctx, ticket)).toBe(false);

    await send(inThread('/pause', 'ou_alice'));
    await waitFor(() => isPaused(h.app.ctx, ticket), 'the requester’s pause');
    // A model request the executor sent just before the pause landed arrives now, not after the
    // count (seen once under load): the count is of a quiet executor.
    await settle();
    const executorRequests = llm.requests.filter((r) => roleOf(r) === 'executor').length;

    await send(inThread('继续', 'ou_mallory'));
    await settle();
    expect(await isPaused(h.app.ctx, ticket)).toBe(true);
    expect(llm.requests.filter((r) => roleOf(r) === 'executor')).toHaveLength(executorRequests);

    await send(inThread('继续', 'ou_alice'));
    await waitFor(async () => !(await isPaused(h.app.ctx, ticket)), 'the requester’s resume');
    await waitFor(
      () => h.feishu.messages.some((m) => m.text === `已继续 ${ticket}。`),
      'the resume confirmation',
    );
  });
});
