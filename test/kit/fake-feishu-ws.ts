import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { decodeFrame, encodeFrame, type Frame } from './pbbp2.ts';
import { acceptWebSocket, type ServerSocket } from './ws-server-socket.ts';

/**
 * Feishu's long connection on loopback (issue 16), as the SDK's `WSClient` meets it:
 * `POST /callback/ws/endpoint` with `{ AppID, AppSecret }` answers a one-time `wss` URL (here
 * `ws`) and the client settings, or code 514 for a wrong id or secret; the socket refuses a
 * missing, reused or stale ticket and more than 50 connections per app (`Handshake-Status`
 * headers); pings get pongs carrying the settings; each event goes to ONE open connection as data
 * frames (split into `sum` parts when asked) and must be acknowledged within 3 s with a data frame
 * echoing its `message_id` and a `{ code: 200 }` payload — otherwise it is delivered again.
 */

export interface WsAck {
  messageId: string;
  code: number;
  /** The handler's answer (a card action's toast), decoded. */
  data: unknown;
  connection: number;
}

export interface WsConnection {
  id: number;
  openedAt: number;
  closedAt?: number;
}

export interface DeliverOptions {
  /** Split the payload into this many frames. */
  parts?: number;
  /** Redeliveries after a missing or failed acknowledgement (Feishu retries too). */
  retries?: number;
  ackTimeoutMs?: number;
}

export interface FakeLongConnection {
  connections: WsConnection[];
  acks: WsAck[];
  /** Pings received (each answered with a pong carrying the client settings). */
  pings(): number;
  /** The most connections that were ever open at once. */
  maxOpen(): number;
  openCount(): number;
  /** Sends an event and resolves with its acknowledgement (after any redeliveries), or undefined. */
  deliver(event: unknown, opts?: DeliverOptions): Promise<WsAck | undefined>;
  /** Closes every open connection from the server side (the client reconnects). */
  dropAll(): void;
  endpoint(body: Record<string, unknown> | undefined): [number, unknown];
  upgrade(req: IncomingMessage, socket: Duplex): void;
  close(): void;
}

const MAX_CONNECTIONS = 50;
/** The client settings handed out (seconds); short so tests see pings and quick reconnects. */
const CLIENT_CONFIG = { PingInterval: 2, ReconnectCount: -1, ReconnectInterval: 1, ReconnectNonce: 1 };
const SERVICE_ID = 7;

export function createFakeLongConnection(
  app: { appId: string; appSecret: string },
  baseUrl: () => string,
  /** Apps made by scanning (issue 33 item 6) connect too. */
  alsoKnows: (appId: string, appSecret: string) => boolean = () => false,
) {
  const tickets = new Map<string, number>();
  const live = new Map<number, ServerSocket>();
  const connections: WsConnection[] = [];
  const acks: WsAck[] = [];
  const waiting = new Map<string, (ack: WsAck) => void>();
  let peak = 0;
  let seq = 0;
  let pings = 0;

  const endpoint = (body: Record<string, unknown> | undefined): [number, unknown] => {
    const own = body?.AppID === app.appId && body?.AppSecret === app.appSecret;
    if (!own && !alsoKnows(String(body?.AppID), String(body?.AppSecret))) {
      return [200, { code: 514, msg: 'app_id or app_secret is invalid', data: {} }];
    }
    const ticket = randomUUID();
    tickets.set(ticket, Date.now());
    const url = `${baseUrl().replace(/^http/, 'ws')}/ws/v2?fpid=493&aid=552564&device_id=dev_${++seq}&access_key=${ticket}&service_id=${SERVICE_ID}&ticket=${ticket}`;
    return [200, { code: 0, msg: 'ok', data: { URL: url, ClientConfig: CLIENT_CONFIG } }];
  };

  const refuse = (socket: Duplex, status: number, msg: string, authCode?: number) => {
    const extra = authCode ? `Handshake-Autherrcode: ${authCode}\r\n` : '';
    socket.end(
      `HTTP/1.1 ${status === 514 ? 403 : status} Forbidden\r\nHandshake-Status: ${status}\r\nHandshake-Msg: ${msg}\r\n${extra}Connection: close\r\n\r\n`,
    );
  };

  const upgrade = (req: IncomingMessage, socket: Duplex) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const ticket = url.searchParams.get('ticket') ?? '';
    const issued = tickets.get(ticket);
    tickets.delete(ticket);
    if (url.pathname !== '/ws/v2' || issued === undefined || Date.now() - issued > 60_000) {
      return refuse(socket, 403, 'ticket invalid');
    }
    if (live.size >= MAX_CONNECTIONS) return refuse(socket, 514, 'exceed conn limit', 1000040350);
    const ws = acceptWebSocket(req, socket);
    if (!ws) return;
    const conn: WsConnection = { id: connections.length + 1, openedAt: Date.now() };
    connections.push(conn);
    live.set(conn.id, ws);
    peak = Math.max(peak, live.size);
    ws.onClose(() => {
      conn.closedAt = Date.now();
      live.delete(conn.id);
    });
    ws.onMessage((data) => onFrame(conn.id, ws, data));
  };

  const onFrame = (connection: number, ws: ServerSocket, data: Buffer) => {
    let f: Frame;
    try {
      f = decodeFrame(data);
    } catch {
      return ws.close(1002);
    }
    if (f.method === 0 && f.headers.type === 'ping') {
      pings += 1;
      const pong = { ...f, headers: { type: 'pong' }, payload: Buffer.from(JSON.stringify(CLIENT_CONFIG)) };
      return ws.send(encodeFrame(pong));
    }
    if (f.method === 1 && f.headers.message_id) {
      const body = JSON.parse(f.payload?.toString('utf8') ?? '{}') as { code?: number; data?: string };
      const ack: WsAck = {
        messageId: f.headers.message_id,
        code: body.code ?? 0,
        data: body.data ? JSON.parse(Buffer.from(body.data, 'base64').toString('utf8')) : undefined,
        connection,
      };
      acks.push(ack);
      waiting.get(ack.messageId)?.(ack);
    }
  };

  /** One delivery attempt to one open connection (chosen at random, as Feishu does). */
  const sendOnce = (json: Buffer, parts: number, timeoutMs: number): Promise<WsAck | undefined> => {
    const open = [...live.values()];
    const ws = open[Math.floor(Math.random() * open.length)];
    if (!ws) return new Promise((r) => setTimeout(() => r(undefined), timeoutMs));
    const messageId = `msg_${randomUUID()}`;
    const size = Math.ceil(json.length / parts);
    const acked = new Promise<WsAck | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      waiting.set(messageId, (ack) => {
        clearTimeout(timer);
        resolve(ack);
      });
    });
    for (let i = 0; i < parts; i++) {
      const headers = {
        type: 'event',
        message_id: messageId,
        sum: String(parts),
        seq: String(i),
        trace_id: randomUUID(),
      };
      const payload = json.subarray(i * size, (i + 1) * size);
      ws.send(encodeFrame({ seqId: ++seq, logId: seq, service: SERVICE_ID, method: 1, headers, payload }));
    }
    return acked.finally(() => waiting.delete(messageId));
  };

  const deliver = async (event: unknown, opts: DeliverOptions = {}): Promise<WsAck | undefined> => {
    const json = Buffer.from(JSON.stringify(event), 'utf8');
    for (let attempt = 0; attempt <= (opts.retries ?? 3); attempt++) {
      const ack = await sendOnce(json, opts.parts ?? 1, opts.ackTimeoutMs ?? 3000);
      if (ack?.code === 200) return ack;
    }
    return undefined;
  };

  return {
    connections,
    acks,
    pings: () => pings,
    maxOpen: () => peak,
    openCount: () => live.size,
    deliver,
    dropAll: () => {
      for (const ws of live.values()) ws.close(1001);
    },
    endpoint,
    upgrade,
    close: () => {
      for (const ws of live.values()) ws.terminate();
    },
  } satisfies FakeLongConnection;
}
