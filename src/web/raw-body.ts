import type { Context } from 'hono';
import { HttpError } from '../errors/http-error.ts';

/** Webhook bodies over this are refused before they are read whole. */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;
/** Admin API and panel API bodies (issue 14 "every request body is capped before parsing"). */
export const MAX_API_BYTES = 1024 * 1024;
/** The sign-in form holds one token: a few KB is plenty. */
export const MAX_SIGN_IN_BYTES = 4 * 1024;

/**
 * Reads the raw body as bytes, refusing more than `max` bytes without buffering them all
 * (webhooks answer 400 as the CONTRACT says; the API and panel 413): signatures are checked over
 * the exact bytes, before any JSON parsing.
 */
export async function readRawBody(
  c: Context,
  max = MAX_WEBHOOK_BYTES,
  status: 400 | 413 = 400,
): Promise<Buffer> {
  const tooLarge = () => new HttpError(status, 'body_too_large', `body over ${max} bytes`);
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > max) throw tooLarge();
  // On Node, read the IncomingMessage itself: touching `c.req.raw.body` makes the adapter build a
  // whole Web Request (and an AbortSignal) for every webhook, a large share of the edge's CPU.
  const incoming = (c.env as { incoming?: NodeJS.ReadableStream } | undefined)?.incoming;
  if (incoming) return readNodeBody(incoming, max, tooLarge);
  const stream = c.req.raw.body;
  if (!stream) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) throw tooLarge();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * `readRawBody` for a bare Node request (the webhook fast path, issue 18): the declared
 * `content-length` and then the bytes read are capped at `max`, refused as 400.
 */
export function readIncomingBody(
  incoming: NodeJS.ReadableStream,
  contentLength: string | undefined,
  max = MAX_WEBHOOK_BYTES,
): Promise<Buffer> {
  const tooLarge = () => new HttpError(400, 'body_too_large', `body over ${max} bytes`);
  if (Number(contentLength ?? '0') > max) return Promise.reject(tooLarge());
  return readNodeBody(incoming, max, tooLarge);
}

/**
 * Collects a Node request body by its events (no async iterator per request, issue 18). Over
 * `max` bytes `tooLarge` is thrown and the rest of the body dropped unread (`dropTheRest`).
 */
function readNodeBody(incoming: NodeJS.ReadableStream, max: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: Error) => {
      incoming.removeListener('data', onData);
      incoming.removeListener('end', onEnd);
      incoming.removeListener('error', onError);
      incoming.removeListener('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.byteLength;
      if (size > max) {
        done(tooLarge());
        dropTheRest(incoming, max);
        return;
      }
      chunks.push(buf);
    };
    const onEnd = () => done();
    const onError = (err: Error) => done(err);
    const onClose = () => done(new Error('request closed before its body was read'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/** How much more than its cap a refused body may still send before the request is destroyed. */
const DROP_FACTOR = 4;

/**
 * After a refusal the rest of a body is read and dropped, never kept, so a client still sending
 * gets the refusal: destroying the request at once reset the connection, and the reset could
 * overtake the 413 (the client saw ECONNRESET). A client that sends more than `DROP_FACTOR` times
 * `max` after it is destroyed.
 */
function dropTheRest(incoming: NodeJS.ReadableStream, max: number): void {
  let dropped = 0;
  const drop = (chunk: Buffer | string) => {
    dropped += chunk.length;
    if (dropped <= DROP_FACTOR * max) return;
    incoming.removeListener('data', drop);
    (incoming as NodeJS.ReadableStream & { destroy(): void }).destroy();
  };
  incoming.on('data', drop);
  // A client that gives up mid-body is no error of ours.
  incoming.on('error', () => {});
}

/** Parses JSON from a verified body; a malformed one is a 400 with the reason. */
export function parseJsonBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (text.includes('\uFFFD') && !raw.equals(Buffer.from(text, 'utf8'))) {
    throw new HttpError(400, 'invalid_utf8', 'body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'malformed_json', `body is not valid JSON: ${(e as Error).message}`);
  }
}
