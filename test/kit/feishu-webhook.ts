import { createCipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * Builds and POSTs Feishu event pushes the way Feishu does (R-A1): the body optionally encrypted
 * (`{ "encrypt": base64(iv + AES-256-CBC(json)) }`, key = sha256(encrypt key)), signed with
 * `X-Lark-Signature` = sha256(timestamp + nonce + encrypt key + body). Knobs spoil one part at a
 * time for the rejection tests.
 */

export interface SendFeishuOptions {
  /** The deployment's encrypt key: signs the push, and encrypts it unless `encrypt: false`. */
  encryptKey?: string;
  encrypt?: boolean;
  /** Encrypt with this key instead (signature still by `encryptKey`): an undecryptable push. */
  encryptWith?: string;
  /** Sign with this key instead of `encryptKey`. */
  signWith?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  nonce?: string;
  /** `signature`: flip the signature; `body`: change the body after signing. */
  tamper?: 'signature' | 'body';
  /** Leave these headers out. */
  omit?: ('signature' | 'timestamp' | 'nonce')[];
  /** Send these bytes as the body instead of the event (still signed unless omitted). */
  rawBody?: string | Buffer;
}

/** Feishu's request signature over the exact body bytes. */
export function signFeishu(
  timestamp: string,
  nonce: string,
  encryptKey: string,
  body: string | Buffer,
): string {
  return createHash('sha256')
    .update(timestamp + nonce + encryptKey)
    .update(body)
    .digest('hex');
}

/** Feishu's event encryption: base64(iv ‖ AES-256-CBC(key = sha256(encryptKey), iv)(plaintext)). */
export function encryptFeishu(plaintext: string, encryptKey: string): string {
  const key = createHash('sha256').update(encryptKey).digest();
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64');
}

/** The exact body and headers a push would carry. */
export function feishuRequest(
  event: unknown,
  opts: SendFeishuOptions = {},
): { body: Buffer; headers: Record<string, string> } {
  const json = JSON.stringify(event);
  const encKey = opts.encryptWith ?? opts.encryptKey;
  const plain =
    opts.rawBody ??
    (encKey && opts.encrypt !== false ? JSON.stringify({ encrypt: encryptFeishu(json, encKey) }) : json);
  let body = Buffer.isBuffer(plain) ? plain : Buffer.from(plain, 'utf8');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signKey = opts.signWith ?? opts.encryptKey;
  if (signKey) {
    const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
    const nonce = opts.nonce ?? randomUUID();
    let signature = signFeishu(timestamp, nonce, signKey, body);
    if (opts.tamper === 'signature') signature = signature.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    if (opts.tamper === 'body') body = Buffer.concat([body.subarray(0, body.length - 1), Buffer.from(' }')]);
    const omit = new Set(opts.omit ?? []);
    if (!omit.has('signature')) headers['x-lark-signature'] = signature;
    if (!omit.has('timestamp')) headers['x-lark-request-timestamp'] = timestamp;
    if (!omit.has('nonce')) headers['x-lark-request-nonce'] = nonce;
  }
  return { body, headers };
}

/** POSTs one push to `url` (the product's `/webhooks/feishu`). */
export async function sendFeishuEvent(
  url: string,
  event: unknown,
  opts: SendFeishuOptions = {},
): Promise<Response> {
  const { body, headers } = feishuRequest(event, opts);
  return fetch(url, { method: 'POST', headers, body: new Uint8Array(body) });
}

// --- event builders ------------------------------------------------------------------------

let seq = 0;
const next = (p: string) => `${p}_${Date.now().toString(36)}_${++seq}`;

export interface MessageEventOptions {
  text?: string;
  chatType?: 'group' | 'p2p';
  chatId?: string;
  messageId?: string;
  eventId?: string;
  /** Verification token in `header.token`. */
  token?: string;
  /** Sender open_id; `senderType: 'app'` for a bot. */
  senderOpenId?: string;
  senderType?: 'user' | 'app';
  /** @-mention this open_id first (the bot's, for a request). */
  mentionOpenId?: string;
  mentionName?: string;
  /** More mentions of people: `[openId, name]`. */
  otherMentions?: [string, string][];
  rootId?: string;
  parentId?: string;
  threadId?: string;
  messageType?: string;
  /** Raw `content` string (overrides `text`). */
  content?: string;
}

/** An `im.message.receive_v1` push (schema 2.0). */
export function messageEvent(o: MessageEventOptions = {}) {
  const mentions: {
    key: string;
    id: { open_id: string; union_id: string; user_id: string };
    name: string;
    tenant_key: string;
  }[] = [];
  let prefix = '';
  const mention = (openId: string, name: string) => {
    const key = `@_user_${mentions.length + 1}`;
    mentions.push({
      key,
      id: { open_id: openId, union_id: `on_${openId}`, user_id: '' },
      name,
      tenant_key: 'tk',
    });
    prefix += `${key} `;
  };
  if (o.mentionOpenId) mention(o.mentionOpenId, o.mentionName ?? 'Switchyard');
  for (const [id, name] of o.otherMentions ?? []) mention(id, name);
  const messageId = o.messageId ?? next('om');
  return {
    schema: '2.0',
    header: {
      event_id: o.eventId ?? next('ev'),
      event_type: 'im.message.receive_v1',
      create_time: String(Date.now()),
      token: o.token ?? 'verify-token',
      app_id: 'cli_a0f1e2d3c4b5a697',
      tenant_key: 'tk',
    },
    event: {
      sender: {
        sender_id: { open_id: o.senderOpenId ?? 'ou_alice', union_id: 'on_alice', user_id: 'alice' },
        sender_type: o.senderType ?? 'user',
        tenant_key: 'tk',
      },
      message: {
        message_id: messageId,
        ...(o.rootId ? { root_id: o.rootId } : {}),
        ...(o.parentId ? { parent_id: o.parentId } : {}),
        ...(o.threadId ? { thread_id: o.threadId } : {}),
        create_time: String(Date.now()),
        chat_id: o.chatId ?? 'oc_team',
        chat_type: o.chatType ?? 'group',
        message_type: o.messageType ?? 'text',
        content: o.content ?? JSON.stringify({ text: `${prefix}${o.text ?? 'hello'}` }),
        mentions,
      },
    },
  };
}

/** A group message that @-mentions the bot. */
export const groupMention = (text: string, botOpenId: string, o: MessageEventOptions = {}) =>
  messageEvent({ ...o, text, chatType: 'group', mentionOpenId: botOpenId });

/** A direct (p2p) message to the bot. */
export const p2pMessage = (text: string, o: MessageEventOptions = {}) =>
  messageEvent({ ...o, text, chatType: 'p2p', chatId: o.chatId ?? 'oc_dm_alice' });

/** A group reply inside a thread, without a mention. */
export const threadReply = (text: string, rootId: string, o: MessageEventOptions = {}) =>
  messageEvent({
    ...o,
    text,
    chatType: 'group',
    rootId,
    parentId: o.parentId ?? rootId,
    threadId: o.threadId ?? `omt_${rootId}`,
  });

export interface CardActionOptions {
  value?: unknown;
  tag?: string;
  openMessageId?: string;
  chatId?: string;
  operatorOpenId?: string;
  eventId?: string;
  token?: string;
}

/** A `card.action.trigger` callback (schema 2.0): a button pressed on one of the bot's cards. */
export function cardAction(o: CardActionOptions = {}) {
  return {
    schema: '2.0',
    header: {
      event_id: o.eventId ?? next('ev'),
      event_type: 'card.action.trigger',
      create_time: String(Date.now() * 1000),
      token: o.token ?? 'verify-token',
      app_id: 'cli_a0f1e2d3c4b5a697',
      tenant_key: 'tk',
    },
    event: {
      operator: {
        tenant_key: 'tk',
        user_id: 'alice',
        open_id: o.operatorOpenId ?? 'ou_alice',
        union_id: 'on_alice',
      },
      token: 'c-card-update-token',
      action: { value: o.value ?? { action: 'pause' }, tag: o.tag ?? 'button' },
      host: 'im_message',
      context: { open_message_id: o.openMessageId ?? next('om'), open_chat_id: o.chatId ?? 'oc_team' },
    },
  };
}

/** The URL-verification challenge Feishu sends when the request URL is saved. */
export const urlVerification = (challenge: string, token = 'verify-token') => ({
  challenge,
  token,
  type: 'url_verification',
});
