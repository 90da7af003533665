import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTickets } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { groupMention, sendFeishuEvent, threadReply } from '../../kit/feishu-webhook.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { ENCRYPT_KEY, type FeishuHarness, startFeishuHarness } from './harness.ts';

describe('issue 16: Feishu confirmations speak the language of the request (R-D2)', () => {
  let h: FeishuHarness;
  let llm: FakeLlm;
  const send = async (event: unknown) => {
    const res = await sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY });
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  };
  beforeAll(async () => {
    llm = await startFakeLlm();
    llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    h = await startFeishuHarness({ LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'k' });
  });
  afterAll(async () => {
    await h.close();
    await llm.close();
  });

  /** Opens a ticket from a request in its own chat; returns its id and the acknowledgement's id. */
  async function openTicket(text: string, chat: string): Promise<{ ticket: string; ack: string }> {
    const request = `om_req_${chat}`;
    await send(groupMention(text, h.feishu.bot.openId, { messageId: request, chatId: chat }));
    const ticket = await waitFor(
      async () =>
        (await listTickets(h.app.ctx)).find(
          (t) => t.origin.source === 'feishu' && t.origin.messageId === request,
        )?.id,
      'the ticket',
    );
    const ack = await waitFor(
      () => h.feishu.messages.find((m) => m.parentId === request),
      'the acknowledgement',
    );
    return { ticket, ack: ack.messageId };
  }

  /** What the person reads under their command message. */
  async function answerTo(text: string, chat: string, ack: string): Promise<string | undefined> {
    const id = `om_cmd_${chat}_${Date.now().toString(36)}`;
    await send(threadReply(text, `om_req_${chat}`, { messageId: id, chatId: chat, parentId: ack }));
    const answer = await waitFor(
      () => h.feishu.messages.find((m) => m.parentId === id),
      `the answer to ${text}`,
    );
    return answer.text;
  }

  it('a person who writes 暂停 and 继续 reads Chinese confirmations', async () => {
    const { ticket, ack } = await openTicket('请修复导出按钮', 'oc_zh');
    // The status card: Chinese for clients in neither language, each reader's own otherwise.
    const card = await waitFor(
      () => h.feishu.messages.find((m) => m.parentId === 'om_req_oc_zh' && m.msgType === 'interactive'),
      'the status card',
    );
    const subtitle = (
      JSON.parse(card.content) as {
        header: { subtitle: { content: string; i18n_content: Record<string, string> } };
      }
    ).header.subtitle;
    expect(subtitle.content).toMatch(/进行中|已完成|受阻/);
    expect(Object.keys(subtitle.i18n_content).sort()).toEqual(['en_us', 'zh_cn']);
    expect(await answerTo('暂停', 'oc_zh', ack)).toBe(
      `已暂停 ${ticket}；在有人说“继续”（/resume）之前，不会再有任何动作。`,
    );
    expect(await answerTo('继续', 'oc_zh', ack)).toBe(`已继续 ${ticket}。`);
    expect(await answerTo('继续', 'oc_zh', ack)).toBe(`${ticket} 没有被暂停。`);
  });

  it('a person who writes /pause and /resume reads English ones', async () => {
    const { ticket, ack } = await openTicket('please fix the export button', 'oc_en');
    expect(await answerTo('/pause', 'oc_en', ack)).toBe(
      `Paused ${ticket}; nothing more happens until someone says /resume.`,
    );
    expect(await answerTo('/resume', 'oc_en', ack)).toBe(`Resumed ${ticket}.`);
  });
  it('/lang zh fixes a chat to Chinese, whatever language a message is in; /lang auto frees it', async () => {
    const { ticket, ack } = await openTicket('please fix the export button', 'oc_fixed');
    expect(await answerTo('/lang zh', 'oc_fixed', ack)).toBe(
      '从现在起，我在这个对话中使用中文；发送 /lang auto 可恢复按每条消息的语言回答。',
    );
    expect(await answerTo('/pause', 'oc_fixed', ack)).toBe(
      `已暂停 ${ticket}；在有人说“继续”（/resume）之前，不会再有任何动作。`,
    );
    expect(await answerTo('@Switchyard /lang auto', 'oc_fixed', ack)).toBe(
      'I answer each message in its own language again.',
    );
    expect(await answerTo('/resume', 'oc_fixed', ack)).toBe(`Resumed ${ticket}.`);
  });
});
