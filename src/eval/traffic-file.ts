import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * A recording of model traffic (issue 29, `--record DIR` / `--replay DIR`): `DIR/recording.json`
 * says what the run spoke to, and `DIR/exchanges/<task>-<run>.jsonl` holds every request a task
 * run's product made and the answer it got, one exchange a line, bytes as they came (streamed
 * chunks one by one). No header is kept: the key travels in headers and never lands on disk.
 */

export const RECORDING_VERSION = 1;

export const RecordingManifest = z.object({
  version: z.literal(RECORDING_VERSION),
  createdAt: z.string(),
  /** The provider and model the product spoke to, so a replay speaks the same contract. */
  provider: z.string(),
  model: z.string(),
  oracle: z.boolean(),
  /** The path the product's base URL had (`/v1` for most Chat Completions servers, `` for Anthropic). */
  basePath: z.string(),
});
export type RecordingManifest = z.infer<typeof RecordingManifest>;

const Response = z.object({
  status: z.number(),
  contentType: z.string().nullable(),
  /** The body as it was written, chunk by chunk: UTF-8 text, or base64 where a chunk is not. */
  chunks: z.array(z.string()),
  encoding: z.enum(['utf8', 'base64']),
  /** False when the product dropped the answer before its end (an idle stream, a shutdown). */
  complete: z.boolean(),
});

export const Exchange = z.object({
  /** 1, 2, … in the order the product sent them within its task run. */
  n: z.number(),
  /** `requestHash` of the request's canonical form (`request-key.ts`). */
  hash: z.string(),
  /**
   * The request in its canonical form (`request-key.ts`): what was hashed, so a replay can show
   * where a new request parts from it.
   */
  request: z.object({ method: z.string(), path: z.string(), body: z.unknown() }),
  /** What the canonical form's names stood for in the recording run (`<card-1>` → its card id). */
  bindings: z.record(z.string(), z.string()),
  response: Response,
});
export type Exchange = z.infer<typeof Exchange>;
export type RecordedResponse = z.infer<typeof Response>;

/** The file of one task run's exchanges; the label (`<task>-<run>`) is made safe for a path. */
function exchangesFile(dir: string, label: string): string {
  return join(dir, 'exchanges', `${label.replace(/[^A-Za-z0-9._@-]/g, '_')}.jsonl`);
}

export function writeManifest(dir: string, manifest: RecordingManifest): void {
  mkdirSync(join(dir, 'exchanges'), { recursive: true });
  writeFileSync(join(dir, 'recording.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The recording's manifest, or why `dir` is not a recording. */
export function readManifest(dir: string): RecordingManifest | string {
  const file = join(dir, 'recording.json');
  if (!existsSync(file)) return `${dir} is not a recording (no recording.json; make one with --record)`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return `${file} is not JSON (${(err as Error).message})`;
  }
  const parsed = RecordingManifest.safeParse(json);
  return parsed.success ? parsed.data : `${file}: ${z.prettifyError(parsed.error)}`;
}

/** Appends one exchange as it completes (a run cut short keeps what it had). */
export function appendExchange(dir: string, label: string, e: Exchange): void {
  mkdirSync(join(dir, 'exchanges'), { recursive: true });
  appendFileSync(exchangesFile(dir, label), `${JSON.stringify(e)}\n`);
}

/** One task run's exchanges in the order they were sent; none when it was never recorded. */
export function readExchanges(dir: string, label: string): Exchange[] {
  const file = exchangesFile(dir, label);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => Exchange.parse(JSON.parse(line)))
    .sort((a, b) => a.n - b.n);
}

/** A body's chunks as stored: text when every chunk survives UTF-8, else base64. */
export function storedChunks(chunks: Buffer[]): Pick<RecordedResponse, 'chunks' | 'encoding'> {
  const text = chunks.map((c) => c.toString('utf8'));
  const faithful = text.every((t, i) => Buffer.from(t, 'utf8').equals(chunks[i] as Buffer));
  return faithful
    ? { chunks: text, encoding: 'utf8' }
    : { chunks: chunks.map((c) => c.toString('base64')), encoding: 'base64' };
}

/** The stored chunks back as the bytes that were written. */
export function chunkBytes(r: Pick<RecordedResponse, 'chunks' | 'encoding'>): Buffer[] {
  return r.chunks.map((c) => Buffer.from(c, r.encoding));
}
