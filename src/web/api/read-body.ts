import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError } from '../../errors/http-error.ts';
import { MAX_API_BYTES, readRawBody } from '../raw-body.ts';

const AnyObject = z.record(z.string(), z.unknown(), { error: 'the body must be a JSON object' });

/**
 * The request body checked against `schema` with `safeParse`: malformed JSON or a body that does
 * not fit is a 400 naming the reason and every offending path, never a crash.
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  // Capped before parsing (issue 14): a 1 GB body is refused after 1 MiB, not buffered whole.
  const bytes = await readRawBody(c, MAX_API_BYTES, 413);
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpError(400, 'malformed_json', 'the body is not valid JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      path: i.path.join('.'),
      code: i.code,
      message: i.message,
    }));
    throw new HttpError(400, 'bad_request', z.prettifyError(parsed.error), { issues });
  }
  return parsed.data;
}

/** A JSON object body whose fields the domain validates itself (reporting 422 by key). */
export const readObject = (c: Context): Promise<Record<string, unknown>> => readBody(c, AnyObject);
