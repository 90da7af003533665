import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feishuRefusal } from './contracts/feishu-contract.ts';
import { createContacts, type FakeContacts } from './fake-feishu-contacts.ts';
import { contentProblem, readableText } from './fake-feishu-content.ts';
import { createHistory, type HistoryMessage, type SeedMessage } from './fake-feishu-history.ts';
import { readBody, reply } from './fake-feishu-io.ts';
import {
  createFakeRegistration,
  type FakeRegistration,
  REGISTRATION_PATH,
  serveRegistration,
} from './fake-feishu-registration.ts';
import { createFakeLongConnection, type FakeLongConnection } from './fake-feishu-ws.ts';

/**
 * A Feishu Open API server on loopback (ARCHITECTURE: "outside services in tests are real HTTP
 * servers"), speaking enough for the official SDK: tenant/app access tokens, bot info, message
 * create/reply/patch and reactions. It records every call, dedupes sends on `uuid` like Feishu,
 * and can be told to fail the next N calls (429, 5xx, rate-limit codes) for retry tests.
 */

export interface FeishuCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
  /** The request body's size in bytes, as sent (Feishu's message limits measure it). */
  bytes: number;
  at: number;
  /** The status the fake answered. */
  status: number;
}

/** A message the bot posted, as a user in the chat would see it. */
export interface FakeFeishuMessage {
  messageId: string;
  via: 'create' | 'reply';
  chatId: string | undefined;
  /** The message replied to (`reply`). */
  parentId: string | undefined;
  inThread: boolean;
  msgType: string;
  /** Raw `content` string as sent. */
  content: string;
  /** What a person reads: a text message's text, a post's title and paragraphs (Markdown rendered). */
  text: string | undefined;
  uuid: string | undefined;
}

export interface FakeFeishuReaction {
  reactionId: string;
  messageId: string;
  emoji: string;
}

export interface FakeFeishuPatch {
  messageId: string;
  content: string;
}

/** One scripted failure: an HTTP status and/or a Feishu business code, optional headers. */
export interface FeishuFailure {
  status?: number;
  code?: number;
  msg?: string;
  headers?: Record<string, string>;
  /** Never answer (a time-out at the client); nothing is stored. */
  hang?: boolean;
}

export interface FakeFeishu {
  /** Base URL to use as `FEISHU_DOMAIN`. */
  url: string;
  bot: { openId: string; name: string };
  appId: string;
  appSecret: string;
  calls: FeishuCall[];
  messages: FakeFeishuMessage[];
  reactions: FakeFeishuReaction[];
  patches: FakeFeishuPatch[];
  /** Fail the next `times` calls whose path matches `match` (default: every `/im/` call). */
  fail(times: number, failure: FeishuFailure, match?: RegExp): void;
  /** Calls to paths matching `match`. */
  callsTo(match: RegExp): FeishuCall[];
  /** What people said in chats, served by the message read APIs (R-H6). */
  history: HistoryMessage[];
  /** Puts a message into a chat's history (as if a person had sent it). */
  seedMessage(m: SeedMessage): HistoryMessage;
  /** The bot leaves a chat: reads there answer 230002. */
  leaveChat(chatId: string): void;
  /** The long connection (issue 16): `POST /callback/ws/endpoint` and the socket behind it. */
  longConnection: FakeLongConnection;
  /** App registration by scanning (issue 33 item 6): `POST /oauth/v1/app/registration`. */
  registration: FakeRegistration;
  /** People by open_id for `GET /open-apis/contact/v3/users/:user_id` (issue 33: names on ticket pages). */
  contacts: FakeContacts;
  close(): Promise<void>;
}

export interface FakeFeishuOptions {
  appId?: string;
  appSecret?: string;
  botOpenId?: string;
  botName?: string;
}

const TOKEN = 't-fake-tenant-token';
const TOKEN_PATH = /^\/open-apis\/auth\/v3\/(tenant|app)_access_token(\/internal)?$/;

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startFakeFeishu(opts: FakeFeishuOptions = {}): Promise<FakeFeishu> {
  // The shape of a real app id: the SDK's WSClient refuses to start with any other.
  const appId = opts.appId ?? 'cli_a0f1e2d3c4b5a697';
  const appSecret = opts.appSecret ?? 'fake-app-secret';
  const bot = { openId: opts.botOpenId ?? 'ou_bot_fake', name: opts.botName ?? 'Switchyard' };
  const calls: FeishuCall[] = [];
  const messages: FakeFeishuMessage[] = [];
  const reactions: FakeFeishuReaction[] = [];
  const patches: FakeFeishuPatch[] = [];
  const byUuid = new Map<string, FakeFeishuMessage>();
  const failures: { left: number; failure: FeishuFailure; match: RegExp }[] = [];
  let seq = 0;
  const hist = createHistory(appId);
  const contacts = createContacts();
  let baseUrl = '';
  const registration = createFakeRegistration(() => `${baseUrl}/page/launcher`);
  const lc = createFakeLongConnection({ appId, appSecret }, () => baseUrl, registration.knows);

  const route = (call: FeishuCall): [number, unknown, (Record<string, string> | undefined)?] => {
    const scripted = failures.find((f) => f.left > 0 && f.match.test(call.path));
    if (scripted) {
      scripted.left -= 1;
      const f = scripted.failure;
      if (f.hang) return [0, undefined];
      return [f.status ?? 200, { code: f.code ?? 99991400, msg: f.msg ?? 'scripted failure' }, f.headers];
    }
    const { method, path, body } = call;
    // Issue 46: a call off Feishu's published API definitions is answered as Feishu would — after
    // its credentials, as Feishu checks those first (the token endpoints and the SDK's long
    // connection carry the app's id and secret in the body instead).
    const off = () => feishuRefusal(method, path, call.query, body, call.bytes);
    const unsigned = path === '/callback/ws/endpoint' || TOKEN_PATH.test(path);
    if (unsigned) {
      const offUnsigned = off();
      if (offUnsigned) return [offUnsigned.status, offUnsigned.body];
    }
    if (method === 'POST' && path === '/callback/ws/endpoint') return lc.endpoint(body);
    if (method === 'POST' && TOKEN_PATH.test(path)) {
      const known =
        (body?.app_id === appId && body?.app_secret === appSecret) ||
        registration.knows(String(body?.app_id), String(body?.app_secret));
      if (!known) return [200, { code: 10014, msg: 'app secret invalid' }];
      return [200, { code: 0, msg: 'ok', tenant_access_token: TOKEN, app_access_token: TOKEN, expire: 7200 }];
    }
    if (call.headers.authorization !== `Bearer ${TOKEN}`) {
      return [400, { code: 99991663, msg: 'Invalid access token for authorization' }];
    }
    const offSigned = unsigned ? undefined : off();
    if (offSigned) return [offSigned.status, offSigned.body];
    const contact = contacts.route(method, path, call.query);
    if (contact) return contact;
    if (method === 'GET' && path === '/open-apis/bot/v3/info') {
      return [
        200,
        {
          code: 0,
          msg: 'ok',
          bot: {
            activate_status: 2,
            app_name: bot.name,
            open_id: bot.openId,
            avatar_url: '',
            ip_white_list: [],
          },
        },
      ];
    }
    const refused =
      method === 'POST' && /^\/open-apis\/im\/v1\/messages(\/[^/]+\/reply)?$/.test(path)
        ? contentProblem(String(body?.msg_type ?? ''), String(body?.content ?? ''))
        : undefined;
    if (refused)
      return [
        400,
        {
          code: 230001,
          msg: `Your request contains an invalid request parameter, ext=invalid message content, ext=${refused}`,
        },
      ];
    if (method === 'POST' && path === '/open-apis/im/v1/messages') {
      if (call.query.receive_id_type !== 'chat_id')
        return [400, { code: 99992402, msg: 'receive_id_type invalid' }];
      return [
        200,
        { code: 0, msg: 'success', data: send('create', String(body?.receive_id), undefined, body) },
      ];
    }
    const reply = path.match(/^\/open-apis\/im\/v1\/messages\/([^/]+)\/reply$/);
    if (method === 'POST' && reply?.[1]) {
      return [200, { code: 0, msg: 'success', data: send('reply', undefined, reply[1], body) }];
    }
    const reaction = path.match(/^\/open-apis\/im\/v1\/messages\/([^/]+)\/reactions$/);
    if (method === 'POST' && reaction?.[1]) {
      const emoji = String((body?.reaction_type as { emoji_type?: unknown } | undefined)?.emoji_type ?? '');
      if (!emoji) return [400, { code: 231001, msg: 'reaction type is invalid' }];
      const r = { reactionId: `rc_${++seq}`, messageId: reaction[1], emoji };
      reactions.push(r);
      return [
        200,
        {
          code: 0,
          msg: 'success',
          data: { reaction_id: r.reactionId, reaction_type: { emoji_type: emoji } },
        },
      ];
    }
    if (method === 'GET' && path === '/open-apis/im/v1/messages') return hist.list(call.query);
    const one = path.match(/^\/open-apis\/im\/v1\/messages\/([^/]+)$/);
    if (method === 'GET' && one?.[1]) return hist.get(decodeURIComponent(one[1]));
    const patch = path.match(/^\/open-apis\/im\/v1\/messages\/([^/]+)$/);
    if (method === 'PATCH' && patch?.[1]) {
      patches.push({ messageId: patch[1], content: String(body?.content ?? '') });
      return [200, { code: 0, msg: 'success', data: {} }];
    }
    return [404, { code: 404, msg: `fake-feishu: no route ${method} ${path}` }];
  };

  /** Feishu keeps one message per uuid (for an hour): a repeat answers the first one. */
  function send(
    via: 'create' | 'reply',
    chatId: string | undefined,
    parentId: string | undefined,
    body?: Record<string, unknown>,
  ) {
    const uuid = typeof body?.uuid === 'string' ? body.uuid : undefined;
    const known = uuid ? byUuid.get(uuid) : undefined;
    const msg: FakeFeishuMessage = known ?? {
      messageId: `om_fake_${++seq}`,
      via,
      chatId,
      parentId,
      inThread: body?.reply_in_thread === true,
      msgType: String(body?.msg_type ?? ''),
      content: String(body?.content ?? ''),
      text: readableText(String(body?.msg_type ?? ''), String(body?.content ?? '')),
      uuid,
    };
    if (!known) {
      messages.push(msg);
      if (uuid) byUuid.set(uuid, msg);
    }
    return {
      message_id: msg.messageId,
      chat_id: msg.chatId ?? 'oc_fake',
      msg_type: msg.msgType,
      body: { content: msg.content },
    };
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => reply(res, 500, { code: 500, msg: String(err) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    if (url.pathname === REGISTRATION_PATH) return serveRegistration(req, res, raw, registration);
    const call: FeishuCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined,
      bytes: Buffer.byteLength(raw),
      at: Date.now(),
      status: 0,
    };
    const [status, body, headers] = route(call);
    call.status = status;
    calls.push(call);
    // Status 0: a scripted hang, never answered (the client's time-out ends it).
    if (status !== 0) reply(res, status, body, headers);
  }

  server.on('upgrade', lc.upgrade);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: baseUrl,
    bot,
    appId,
    appSecret,
    calls,
    messages,
    reactions,
    patches,
    fail: (times, failure, match = /^\/open-apis\/im\//) =>
      void failures.push({ left: times, failure, match }),
    callsTo: (match) => calls.filter((c) => match.test(c.path)),
    history: hist.history,
    seedMessage: (m) => hist.seed(m),
    leaveChat: (chatId) => void hist.leftChats.add(chatId),
    longConnection: lc,
    registration,
    contacts,
    close: () =>
      new Promise<void>((resolve) => {
        lc.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
