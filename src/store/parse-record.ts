import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { RecordRefusedError } from './record-refused-error.ts';
import { StoredRecordError } from './stored-record-error.ts';

export type RecordRead<T> = { ok: true; value: T } | { ok: false; error: StoredRecordError };
export type RecordWrite = { ok: true; json: string } | { ok: false; error: RecordRefusedError };

/**
 * Issue 20: reads one stored JSON value through its owner's zod schema. A value that fails is
 * logged with its key and returned as a `StoredRecordError`; the owner decides whether that stops
 * the caller (`parseRecord`) or is skipped (a list of notes keeps its valid entries).
 */
export function readRecord<S extends z.ZodType>(
  ctx: Partial<Pick<Ctx, 'log'>>,
  schema: S,
  raw: string,
  key: string,
): RecordRead<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return report(ctx, key, (err as Error).message);
  }
  return checkRecord(ctx, schema, json, key);
}

/**
 * `readRecord` for a value already decoded (a hash whose fields are each JSON, decoded one by one
 * by its owner): checked against the schema, reported the same way.
 */
export function checkRecord<S extends z.ZodType>(
  ctx: Partial<Pick<Ctx, 'log'>>,
  schema: S,
  value: unknown,
  key: string,
): RecordRead<z.output<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : report(ctx, key, z.prettifyError(parsed.error));
}

/** `readRecord` for a value the caller cannot do without: an invalid one throws `StoredRecordError`. */
export function parseRecord<S extends z.ZodType>(
  ctx: Partial<Pick<Ctx, 'log'>>,
  schema: S,
  raw: string,
  key: string,
): z.output<S> {
  const r = readRecord(ctx, schema, raw, key);
  if (!r.ok) throw r.error;
  return r.value;
}

function report(
  ctx: Partial<Pick<Ctx, 'log'>>,
  key: string,
  problem: string,
): { ok: false; error: StoredRecordError } {
  ctx.log?.error({ key, problem }, 'stored record failed validation');
  return { ok: false, error: new StoredRecordError(key, problem) };
}

/**
 * Issue 31: a record is validated when written as it is when read. Encodes `value` as JSON after
 * checking it against the schema its owner reads it with; a value that fails (a GitHub answer
 * without `node_id`) is logged and refused, never stored to fail every later read.
 */
export function writeRecord<S extends z.ZodType>(
  ctx: Partial<Pick<Ctx, 'log'>>,
  schema: S,
  value: unknown,
  key: string,
): RecordWrite {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, json: JSON.stringify(parsed.data) };
  const problem = z.prettifyError(parsed.error);
  ctx.log?.warn({ key, problem }, 'record refused: it would fail validation when read');
  return { ok: false, error: new RecordRefusedError(key, problem) };
}

/** `writeRecord` for a write the caller cannot go without: a refused value throws `RecordRefusedError`. */
export function encodeRecord<S extends z.ZodType>(
  ctx: Partial<Pick<Ctx, 'log'>>,
  schema: S,
  value: unknown,
  key: string,
): string {
  const w = writeRecord(ctx, schema, value, key);
  if (!w.ok) throw w.error;
  return w.json;
}
