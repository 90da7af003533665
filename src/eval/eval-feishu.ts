import { createCipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The eval's loopback Feishu for `channel: feishu` tasks: the open-platform calls the bot makes for
 * a chat request (tenant token, its own identity, messages sent, replied, patched and read,
 * reactions), and event pushes to the product's `/webhooks/feishu`, encrypted and signed as
 * Feishu does. It keeps what the bot sent, so the runner can answer in the bot's thread.
 */

export interface SentMessage {
  messageId: string;
  chatId: string;
  parentId?: string;
  msgType: string;
  content: string;
}

export interface EvalFeishu {
  url: string;
  appId: string;
  appSecret: string;
  botOpenId: string;
  sent: SentMessage[];
  /** POSTs a person's message (mentioning the bot unless it replies in a thread); returns its id. */
  push(
    webhook: string,
    o: { text: string; chatId: string; parentId?: string; rootId?: string },
  ): Promise<string>;
  close(): Promise<void>;
}

const TOKEN = 't-eval-tenant-token';
type Answer = [number, unknown];

export async function startEvalFeishu(keys: {
  encryptKey: string;
  verificationToken: string;
}): Promise<EvalFeishu> {
  const appId = `cli_${randomBytes(8).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  const botOpenId = 'ou_switchyard_eval';
  const sent: SentMessage[] = [];
  const people: SentMessage[] = [];
  let seq = 0;
  const ok = (data: unknown): Answer => [200, { code: 0, msg: 'success', data }];
  const send = (chatId: string, parentId: string | undefined, b: Record<string, unknown>): Answer => {
    const m: SentMessage = {
      messageId: `om_bot_${++seq}`,
      chatId,
      ...(parentId ? { parentId } : {}),
      msgType: String(b.msg_type ?? ''),
      content: String(b.content ?? ''),
    };
    sent.push(m);
    return ok({
      message_id: m.messageId,
      chat_id: chatId,
      msg_type: m.msgType,
      body: { content: m.content },
    });
  };
  const route = (
    method: string,
    path: string,
    q: URLSearchParams,
    b: Record<string, unknown>,
    auth: string,
  ): Answer => {
    if (method === 'POST' && /^\/open-apis\/auth\/v3\/(tenant|app)_access_token(\/internal)?$/.test(path))
      return b.app_id === appId && b.app_secret === appSecret
        ? [200, { code: 0, msg: 'ok', tenant_access_token: TOKEN, app_access_token: TOKEN, expire: 7200 }]
        : [200, { code: 10014, msg: 'app secret invalid' }];
    if (auth !== `Bearer ${TOKEN}`)
      return [400, { code: 99991663, msg: 'Invalid access token for authorization' }];
    if (method === 'GET' && path === '/open-apis/bot/v3/info')
      return [
        200,
        { code: 0, msg: 'ok', bot: { activate_status: 2, app_name: 'Switchyard', open_id: botOpenId } },
      ];
    if (method === 'POST' && path === '/open-apis/im/v1/messages')
      return send(String(b.receive_id ?? q.get('receive_id') ?? ''), undefined, b);
    const reply = /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reply$/.exec(path);
    if (method === 'POST' && reply?.[1]) {
      const parent = [...sent, ...people].find((m) => m.messageId === reply[1]);
      return send(parent?.chatId ?? 'oc_unknown', reply[1], b);
    }
    if (method === 'POST' && /\/reactions$/.test(path))
      return ok({ reaction_id: `rc_${++seq}`, reaction_type: b.reaction_type });
    const one = /^\/open-apis\/im\/v1\/messages\/([^/]+)$/.exec(path);
    if (method === 'PATCH' && one?.[1]) {
      const m = sent.find((x) => x.messageId === one[1]);
      if (m) m.content = String(b.content ?? m.content);
      return ok({});
    }
    if (method === 'GET' && one?.[1]) {
      const m = [...sent, ...people].find((x) => x.messageId === decodeURIComponent(one[1] ?? ''));
      return m ? ok({ items: [wire(m, botOpenId)] }) : [400, { code: 230011, msg: 'message not found' }];
    }
    if (method === 'GET' && path === '/open-apis/im/v1/messages') {
      const chat = q.get('container_id');
      const items = [...people, ...sent].filter((m) => m.chatId === chat).map((m) => wire(m, botOpenId));
      return ok({ items, has_more: false });
    }
    if (process.env.EVAL_DEBUG) process.stderr.write(`eval feishu: no route ${method} ${path}\n`);
    return [404, { code: 404, msg: `eval feishu: no route ${method} ${path}` }];
  };
  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => reply(res, 500, { code: 500, msg: String(err) }));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://local');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const [status, answer] = route(
      req.method ?? 'GET',
      u.pathname,
      u.searchParams,
      body,
      req.headers.authorization ?? '',
    );
    reply(res, status, answer);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    appId,
    appSecret,
    botOpenId,
    sent,
    async push(webhook, o) {
      const messageId = `om_person_${randomUUID().slice(0, 8)}`;
      const threaded = Boolean(o.parentId || o.rootId);
      const text = threaded ? o.text : `@_user_1 ${o.text}`;
      const content = JSON.stringify({ text });
      people.push({ messageId, chatId: o.chatId, msgType: 'text', content });
      const event = messageEvent(appId, keys.verificationToken, botOpenId, {
        ...o,
        messageId,
        content,
        threaded,
      });
      const res = await postSigned(webhook, event, keys.encryptKey);
      if (!res.ok) throw new Error(`the Feishu webhook answered ${res.status}: ${await res.text()}`);
      return messageId;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function wire(m: SentMessage, botOpenId: string) {
  const bot = m.messageId.startsWith('om_bot_');
  return {
    message_id: m.messageId,
    chat_id: m.chatId,
    ...(m.parentId ? { parent_id: m.parentId } : {}),
    msg_type: m.msgType,
    create_time: String(Date.now()),
    sender: bot
      ? { id: botOpenId, id_type: 'open_id', sender_type: 'app' }
      : { id: 'ou_eval_person', id_type: 'open_id', sender_type: 'user' },
    body: { content: m.content },
  };
}

function messageEvent(
  appId: string,
  token: string,
  botOpenId: string,
  o: {
    messageId: string;
    chatId: string;
    content: string;
    threaded: boolean;
    parentId?: string;
    rootId?: string;
  },
) {
  const mentions = o.threaded
    ? []
    : [
        {
          key: '@_user_1',
          id: { open_id: botOpenId, union_id: '', user_id: '' },
          name: 'Switchyard',
          tenant_key: 'tk',
        },
      ];
  return {
    schema: '2.0',
    header: {
      event_id: `ev_${randomUUID()}`,
      event_type: 'im.message.receive_v1',
      create_time: String(Date.now()),
      token,
      app_id: appId,
      tenant_key: 'tk',
    },
    event: {
      sender: {
        sender_id: { open_id: 'ou_eval_person', union_id: 'on_eval', user_id: 'eval' },
        sender_type: 'user',
        tenant_key: 'tk',
      },
      message: {
        message_id: o.messageId,
        ...(o.rootId ? { root_id: o.rootId } : {}),
        ...(o.parentId ? { parent_id: o.parentId } : {}),
        create_time: String(Date.now()),
        chat_id: o.chatId,
        chat_type: 'group',
        message_type: 'text',
        content: o.content,
        mentions,
      },
    },
  };
}

/** Feishu's push: `{ encrypt }` (AES-256-CBC, key sha256(encrypt key)), signed over the body. */
function postSigned(url: string, event: unknown, encryptKey: string): Promise<Response> {
  const key = createHash('sha256').update(encryptKey).digest();
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const enc = Buffer.concat([iv, cipher.update(JSON.stringify(event), 'utf8'), cipher.final()]).toString(
    'base64',
  );
  const body = JSON.stringify({ encrypt: enc });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomUUID();
  const signature = createHash('sha256')
    .update(timestamp + nonce + encryptKey)
    .update(body)
    .digest('hex');
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-lark-signature': signature,
      'x-lark-request-timestamp': timestamp,
      'x-lark-request-nonce': nonce,
    },
    body,
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
