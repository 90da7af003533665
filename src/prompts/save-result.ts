import type { SettingsProblem } from './settings.ts';

/**
 * The outcome of a save or restore, which the HTTP layer maps to 200, 409, 422 and 404 and the
 * tools to a result for the model.
 */
export type SaveResult =
  | { ok: true; revision: number; dropped: string[] }
  | { ok: false; error: 'conflict'; currentRevision: number }
  | { ok: false; error: 'invalid'; errors: SettingsProblem[] }
  | { ok: false; error: 'not_found'; revision: number };

export const invalid = (errors: SettingsProblem[]): SaveResult => ({ ok: false, error: 'invalid', errors });

/** Reads a non-negative integer base revision out of a request body, or reports it. */
export function baseRevisionOf(body: Record<string, unknown>, field = 'baseRevision') {
  const v = body[field];
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  const problem: SettingsProblem = {
    key: field,
    code: 'invalid_value',
    message: 'the revision this draft was based on is required (a whole number, 0 before any save)',
  };
  return problem;
}
