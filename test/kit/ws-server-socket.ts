import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * A server-side WebSocket (RFC 6455) over a raw upgraded socket, just enough for a fake service:
 * binary messages both ways, ping/pong, close, fragmented messages. Refuses what a real server
 * refuses: a bad handshake, an unmasked client frame (1002), a frame over `MAX_FRAME` (1009).
 */
export interface ServerSocket {
  send(data: Buffer): void;
  close(code?: number): void;
  /** Drops the TCP connection without a close frame. */
  terminate(): void;
  readonly open: boolean;
  onMessage(cb: (data: Buffer) => void): void;
  onClose(cb: () => void): void;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_FRAME = 16 * 1024 * 1024;

/** Answers the upgrade with 101 and returns the socket, or undefined after refusing a bad handshake. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex): ServerSocket | undefined {
  const key = req.headers['sec-websocket-key'];
  if (
    req.headers.upgrade?.toLowerCase() !== 'websocket' ||
    typeof key !== 'string' ||
    req.headers['sec-websocket-version'] !== '13'
  ) {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return undefined;
  }
  const accept = createHash('sha1')
    .update(key + GUID)
    .digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  return wrap(socket);
}

function frameOf(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : len < 65536
        ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), u64(len)]);
  return Buffer.concat([head, payload]);
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

function wrap(socket: Duplex): ServerSocket {
  let open = true;
  let pending = Buffer.alloc(0);
  let fragments: Buffer[] = [];
  const messageCbs: ((d: Buffer) => void)[] = [];
  const closeCbs: (() => void)[] = [];
  const shut = () => {
    if (!open) return;
    open = false;
    for (const cb of closeCbs) cb();
  };
  const fail = (code: number) => {
    const body = Buffer.alloc(2);
    body.writeUInt16BE(code);
    if (open) socket.end(frameOf(8, body));
    shut();
  };
  const onFrame = (fin: boolean, opcode: number, payload: Buffer) => {
    if (opcode === 8) {
      if (open) socket.end(frameOf(8, payload.subarray(0, 2)));
      shut();
    } else if (opcode === 9) socket.write(frameOf(10, payload));
    else if (opcode === 10) return;
    else if (opcode === 0 || opcode === 1 || opcode === 2) {
      fragments.push(payload);
      if (!fin) return;
      const whole = Buffer.concat(fragments);
      fragments = [];
      for (const cb of messageCbs) cb(whole);
    } else fail(1002);
  };
  const parse = () => {
    while (open && pending.length >= 2) {
      const b0 = pending[0] as number;
      const b1 = pending[1] as number;
      if ((b1 & 0x80) === 0) return fail(1002); // clients must mask every frame
      let len = b1 & 0x7f;
      let at = 2;
      if (len === 126) {
        if (pending.length < 4) return;
        len = pending.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (pending.length < 10) return;
        len = Number(pending.readBigUInt64BE(2));
        at = 10;
      }
      if (len > MAX_FRAME) return fail(1009);
      if (pending.length < at + 4 + len) return;
      const mask = pending.subarray(at, at + 4);
      const payload = Buffer.from(pending.subarray(at + 4, at + 4 + len));
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
      pending = pending.subarray(at + 4 + len);
      onFrame((b0 & 0x80) !== 0, b0 & 0x0f, payload);
    }
  };
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    parse();
  });
  // The peer's FIN (a killed process's kernel sends one): end our side too, the connection is gone.
  socket.on('end', () => {
    socket.end();
    shut();
  });
  socket.on('close', shut);
  socket.on('error', shut);
  return {
    get open() {
      return open;
    },
    send(data) {
      if (open) socket.write(frameOf(2, data));
    },
    close(code = 1000) {
      fail(code);
    },
    terminate() {
      socket.destroy();
      shut();
    },
    onMessage: (cb) => void messageCbs.push(cb),
    onClose: (cb) => void closeCbs.push(cb),
  };
}
