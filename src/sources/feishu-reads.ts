import type { Client } from '@larksuiteoapi/node-sdk';
import type { Author } from '../cards/card.ts';
import { isAllowedOnFeishu, NOT_ALLOWED_ROLE } from '../channels/feishu/allow-list.ts';
import type { Mention } from '../channels/feishu/event-schemas.ts';
import { createLarkClient } from '../channels/feishu/lark-client.ts';
import { readMessage } from '../channels/feishu/read-message.ts';
import type { Ctx } from '../context.ts';
import type { SourceMessage } from './source-text.ts';

/** A message as `GET /open-apis/im/v1/messages…` returns it. */
export interface FeishuItem {
  message_id?: string;
  root_id?: string;
  parent_id?: string;
  thread_id?: string;
  msg_type?: string;
  create_time?: string;
  deleted?: boolean;
  chat_id?: string;
  sender?: { id: string; id_type: string; sender_type: string };
  body?: { content: string };
  mentions?: { key: string; id: string; id_type: string; name: string }[];
}

/** A Feishu read that failed: the API's business code and words, for the model and the logs. */
export class FeishuReadError extends Error {
  override name = 'FeishuReadError' as const;
  readonly code: number;
  constructor(code: number, msg: string) {
    super(`Feishu answered ${code}: ${msg}`);
    this.code = code;
  }
}

const clients = new WeakMap<Ctx, Client>();

/** The deployment's Feishu client for reads, built once per context; undefined when Feishu is off. */
export function feishuClient(ctx: Ctx): Client | undefined {
  if (!ctx.config.FEISHU_APP_ID || !ctx.config.FEISHU_APP_SECRET) return undefined;
  let c = clients.get(ctx);
  if (!c) {
    c = createLarkClient(ctx.config, ctx.log);
    clients.set(ctx, c);
  }
  return c;
}

interface Answer {
  code?: number;
  msg?: string;
  data?: { items?: FeishuItem[]; has_more?: boolean; page_token?: string };
}

/** One GET, with Feishu's answer whether it came as 200 or as an HTTP error carrying `{ code, msg }`. */
async function get(client: Client, url: string, params: Record<string, string | number>): Promise<Answer> {
  let answer: Answer;
  try {
    answer = (await client.request({ method: 'GET', url, params })) as Answer;
  } catch (err) {
    const data = (err as { response?: { data?: Answer } }).response?.data;
    if (!data || typeof data.code !== 'number') throw err;
    answer = data;
  }
  if (answer.code !== undefined && answer.code !== 0)
    throw new FeishuReadError(answer.code, answer.msg ?? 'error');
  return answer;
}

/** `GET /open-apis/im/v1/messages/:message_id`: one message (a merged forward answers several). */
export async function getMessage(client: Client, id: string): Promise<FeishuItem | undefined> {
  const a = await get(client, `/open-apis/im/v1/messages/${encodeURIComponent(id)}`, {});
  return a.data?.items?.find((i) => i.message_id === id) ?? a.data?.items?.[0];
}

export interface ListArgs {
  container: 'chat' | 'thread';
  id: string;
  /** Seconds; the chat container only (Feishu does not filter threads by time). */
  startTime?: number;
  endTime?: number;
  pageSize?: number;
  pageToken?: string | undefined;
}

/** `GET /open-apis/im/v1/messages`: one page of a chat's or thread's history, oldest first. */
export async function listMessages(client: Client, a: ListArgs) {
  const params: Record<string, string | number> = {
    container_id_type: a.container,
    container_id: a.id,
    sort_type: 'ByCreateTimeAsc',
    // Feishu's limit: 1–50 a page.
    page_size: Math.min(50, Math.max(1, a.pageSize ?? 20)),
  };
  if (a.container === 'chat' && a.startTime !== undefined) params.start_time = String(a.startTime);
  if (a.container === 'chat' && a.endTime !== undefined) params.end_time = String(a.endTime);
  if (a.pageToken) params.page_token = a.pageToken;
  const res = await get(client, '/open-apis/im/v1/messages', params);
  return {
    items: res.data?.items ?? [],
    next: res.data?.has_more && res.data.page_token ? res.data.page_token : undefined,
  };
}

/**
 * A read Feishu message as data (R-H6): its readable text (mentions named), its author and
 * standing — this bot, another bot, a person, or a person outside the allow-lists (R-A5).
 */
export async function feishuMessage(ctx: Ctx, item: FeishuItem): Promise<SourceMessage> {
  const mentions: Mention[] = (item.mentions ?? []).map((m) => ({
    key: m.key,
    id: { open_id: m.id_type === 'open_id' ? m.id : undefined, user_id: undefined, union_id: undefined },
    name: m.name,
  }));
  const { text, title } = item.deleted
    ? { text: '[deleted]', title: undefined }
    : await readMessage(item.msg_type ?? 'text', item.body?.content ?? '{}', mentions, () => false);
  const created = Number(item.create_time);
  return {
    source: 'feishu',
    kind: 'message',
    id: item.message_id ?? 'unknown',
    author: senderOf(ctx, item),
    at: Number.isFinite(created) && created > 0 ? new Date(created).toISOString() : undefined,
    facts: {
      chat: item.chat_id,
      'replies to': item.parent_id,
      thread: item.thread_id,
    },
    title,
    text,
  };
}

function senderOf(ctx: Ctx, item: FeishuItem): Author {
  const s = item.sender;
  if (!s) return { id: 'unknown', type: 'person', role: NOT_ALLOWED_ROLE };
  if (s.sender_type === 'app') return { id: s.id, type: s.id === ctx.config.FEISHU_APP_ID ? 'self' : 'bot' };
  const ids = {
    open_id: s.id_type === 'open_id' ? s.id : undefined,
    user_id: undefined,
    union_id: undefined,
  };
  return isAllowedOnFeishu(ctx.config, ids, item.chat_id)
    ? { id: s.id, type: 'person' }
    : { id: s.id, type: 'person', role: NOT_ALLOWED_ROLE };
}
