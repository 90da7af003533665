import type { Context } from 'hono';
import { HttpError } from '../../errors/http-error.ts';
import type { SaveResult } from '../../prompts/index.ts';

/**
 * Maps a prompts or policy save to the contract's answers: 200 `{ revision, dropped }`,
 * 409 `{ error: "conflict", currentRevision }`, 422 `{ errors: [{ key, code, message }] }`,
 * 404 for a restore of an unknown revision.
 */
export function saveResponse(c: Context, result: SaveResult): Response {
  if (result.ok) return c.json({ revision: result.revision, dropped: result.dropped });
  switch (result.error) {
    case 'conflict':
      throw new HttpError(409, 'conflict', 'conflict', { currentRevision: result.currentRevision });
    case 'invalid':
      throw new HttpError(422, 'invalid', 'invalid', { errors: result.errors });
    case 'not_found':
      throw new HttpError(404, 'not_found', `no revision ${result.revision}`, { revision: result.revision });
  }
}

/** A non-negative whole number from a path segment, or a 404 (no such thing can exist). */
export function revisionParam(raw: string, what = 'revision'): number {
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(404, 'not_found', `no ${what} ${raw}`);
  return Number(raw);
}
