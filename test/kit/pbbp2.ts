/**
 * The long connection's wire format (issue 16), written from the `pbbp2.Frame` schema the Feishu
 * SDKs carry — not from their code, so the fake checks the SDK instead of agreeing with it:
 *
 *   message Header { required string key = 1; required string value = 2; }
 *   message Frame  { required uint64 SeqID = 1; required uint64 LogID = 2; required int32 service = 3;
 *                    required int32 method = 4; repeated Header headers = 5; optional string
 *                    payloadEncoding = 6; optional string payloadType = 7; optional bytes payload = 8;
 *                    optional string LogIDNew = 9; }
 *
 * `method` 0 is a control frame (ping/pong), 1 a data frame (an event, or its acknowledgement).
 */
export interface Frame {
  seqId: number;
  logId: number;
  service: number;
  method: number;
  headers: Record<string, string>;
  payload?: Buffer;
}

const enc = new TextEncoder();

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

const tag = (field: number, wire: number) => varint(field * 8 + wire);
const bytesField = (field: number, b: Uint8Array) => [...tag(field, 2), ...varint(b.length), ...b];

/** One frame as bytes, required fields always written. */
export function encodeFrame(f: Frame): Buffer {
  const out: number[] = [
    ...tag(1, 0),
    ...varint(f.seqId),
    ...tag(2, 0),
    ...varint(f.logId),
    ...tag(3, 0),
    ...varint(f.service),
    ...tag(4, 0),
    ...varint(f.method),
  ];
  for (const [k, v] of Object.entries(f.headers)) {
    out.push(
      ...bytesField(5, Uint8Array.from([...bytesField(1, enc.encode(k)), ...bytesField(2, enc.encode(v))])),
    );
  }
  if (f.payload) out.push(...bytesField(8, f.payload));
  return Buffer.from(out);
}

class Reader {
  pos = 0;
  readonly buf: Buffer;
  constructor(buf: Buffer) {
    this.buf = buf;
  }
  get done() {
    return this.pos >= this.buf.length;
  }
  varint(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('pbbp2: truncated varint');
      const b = this.buf[this.pos++] as number;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 0x80;
      if (scale > 2 ** 63) throw new Error('pbbp2: varint too long');
    }
  }
  bytes(): Buffer {
    const len = this.varint();
    if (this.pos + len > this.buf.length) throw new Error('pbbp2: truncated field');
    const b = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return b;
  }
  skipField(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 2) this.bytes();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else throw new Error(`pbbp2: wire type ${wire}`);
  }
}

function decodeHeader(buf: Buffer): [string, string] {
  const r = new Reader(buf);
  let key: string | undefined;
  let value: string | undefined;
  while (!r.done) {
    const t = r.varint();
    if (t === 10) key = r.bytes().toString('utf8');
    else if (t === 18) value = r.bytes().toString('utf8');
    else r.skipField(t & 7);
  }
  if (key === undefined || value === undefined) throw new Error('pbbp2: header without key or value');
  return [key, value];
}

/** Parses a frame; a frame missing a required field is refused, as the real decoder does. */
export function decodeFrame(buf: Buffer): Frame {
  const r = new Reader(buf);
  const seen = new Set<number>();
  const f: Frame = { seqId: 0, logId: 0, service: 0, method: 0, headers: {} };
  while (!r.done) {
    const t = r.varint();
    const field = Math.floor(t / 8);
    seen.add(field);
    if (field === 1) f.seqId = r.varint();
    else if (field === 2) f.logId = r.varint();
    else if (field === 3) f.service = r.varint();
    else if (field === 4) f.method = r.varint();
    else if (field === 5) {
      const [k, v] = decodeHeader(r.bytes());
      f.headers[k] = v;
    } else if (field === 8) f.payload = Buffer.from(r.bytes());
    else r.skipField(t & 7);
  }
  for (const [field, name] of [
    [1, 'SeqID'],
    [2, 'LogID'],
    [3, 'service'],
    [4, 'method'],
  ] as const) {
    if (!seen.has(field)) throw new Error(`pbbp2: missing required '${name}'`);
  }
  return f;
}
