import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { StoredRecordError } from './stored-record-error.ts';

export type RecordRead<T> = { ok: true; value: T } | { ok: false; error: StoredRecordError };

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
