/**
 * The message history half of the fake Feishu (issue 15, R-H6): what people said in chats, served
 * the way `GET /open-apis/im/v1/messages/:message_id` and `GET /open-apis/im/v1/messages` serve
 * it — items with `sender`, `body.content`, millisecond `create_time`; `container_id_type` chat or
 * thread; `start_time`/`end_time` in seconds for chats only; `page_size` 1–50 (default 20) with an
 * opaque `page_token`; a chat the bot is not in answers 400 / 230002, a bad parameter 400 / 230001.
 */

export interface HistoryMessage {
  messageId: string;
  chatId: string;
  /** `user` (a person's open_id) or `app` (a bot's app id). */
  senderType: 'user' | 'app';
  senderId: string;
  msgType: string;
  content: string;
  createTime: number;
  parentId?: string | undefined;
  rootId?: string | undefined;
  threadId?: string | undefined;
  mentions?: { key: string; id: string; id_type: string; name: string }[];
}

export interface SeedMessage {
  chatId: string;
  text?: string;
  /** Raw `content` (overrides `text`). */
  content?: string;
  msgType?: string;
  messageId?: string;
  senderOpenId?: string;
  senderType?: 'user' | 'app';
  parentId?: string;
  rootId?: string;
  threadId?: string;
  /** Milliseconds; default now. */
  createTime?: number;
}

type Reply = [number, unknown];

const bad = (msg: string): Reply => [
  400,
  { code: 230001, msg: `Your request contains an invalid request parameter: ${msg}` },
];
const outside: Reply = [400, { code: 230002, msg: 'The bot can not be outside the group.' }];

export function createHistory(botAppId: string) {
  const history: HistoryMessage[] = [];
  const leftChats = new Set<string>();
  let seq = 0;
  const item = (m: HistoryMessage) => ({
    message_id: m.messageId,
    ...(m.rootId ? { root_id: m.rootId } : {}),
    ...(m.parentId ? { parent_id: m.parentId } : {}),
    ...(m.threadId ? { thread_id: m.threadId } : {}),
    msg_type: m.msgType,
    create_time: String(m.createTime),
    update_time: String(m.createTime),
    deleted: false,
    updated: false,
    chat_id: m.chatId,
    sender: {
      id: m.senderId,
      id_type: m.senderType === 'app' ? 'app_id' : 'open_id',
      sender_type: m.senderType,
      tenant_key: 'tk',
    },
    body: { content: m.content },
    mentions: m.mentions ?? [],
  });
  return {
    history,
    /** Chats the bot was removed from: reads there answer 230002. */
    leftChats,
    seed(s: SeedMessage): HistoryMessage {
      const m: HistoryMessage = {
        messageId: s.messageId ?? `om_seed_${++seq}`,
        chatId: s.chatId,
        senderType: s.senderType ?? 'user',
        senderId: s.senderType === 'app' ? (s.senderOpenId ?? botAppId) : (s.senderOpenId ?? 'ou_alice'),
        msgType: s.msgType ?? 'text',
        content: s.content ?? JSON.stringify({ text: s.text ?? '' }),
        createTime: s.createTime ?? Date.now(),
        parentId: s.parentId,
        rootId: s.rootId,
        threadId: s.threadId,
      };
      history.push(m);
      return m;
    },
    /** `GET /open-apis/im/v1/messages/:message_id` */
    get(id: string): Reply {
      const m = history.find((x) => x.messageId === id);
      if (!m) return bad(`message_id ${id} not found`);
      if (leftChats.has(m.chatId)) return outside;
      return [200, { code: 0, msg: 'success', data: { items: [item(m)] } }];
    },
    /** `GET /open-apis/im/v1/messages` */
    list(q: Record<string, string>): Reply {
      const type = q.container_id_type;
      const id = q.container_id;
      if (type !== 'chat' && type !== 'thread') return bad('container_id_type');
      if (!id) return bad('container_id');
      const size = q.page_size === undefined ? 20 : Number(q.page_size);
      if (!Number.isInteger(size) || size < 1 || size > 50) return bad('page_size');
      if (type === 'thread' && (q.start_time || q.end_time))
        return bad('thread does not support start_time/end_time');
      const sort = q.sort_type ?? 'ByCreateTimeAsc';
      if (sort !== 'ByCreateTimeAsc' && sort !== 'ByCreateTimeDesc') return bad('sort_type');
      let found = history.filter((m) => (type === 'chat' ? m.chatId === id : m.threadId === id));
      const chat = type === 'chat' ? id : found[0]?.chatId;
      if (chat && leftChats.has(chat)) return outside;
      const start = q.start_time ? Number(q.start_time) * 1000 : -Infinity;
      const end = q.end_time ? Number(q.end_time) * 1000 : Infinity;
      found = found.filter((m) => m.createTime >= start && m.createTime <= end);
      found.sort((a, b) =>
        sort === 'ByCreateTimeAsc' ? a.createTime - b.createTime : b.createTime - a.createTime,
      );
      let from = 0;
      if (q.page_token) {
        const n = Number(Buffer.from(q.page_token, 'base64url').toString('utf8').replace(/^p:/, ''));
        if (!Number.isInteger(n) || n < 0) return bad('page_token');
        from = n;
      }
      const items = found.slice(from, from + size).map(item);
      const hasMore = from + size < found.length;
      return [
        200,
        {
          code: 0,
          msg: 'success',
          data: {
            has_more: hasMore,
            ...(hasMore ? { page_token: Buffer.from(`p:${from + size}`).toString('base64url') } : {}),
            items,
          },
        },
      ];
    },
  };
}
