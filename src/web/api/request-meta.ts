import type { Context } from 'hono';
import type { SaveMeta } from '../../prompts/index.ts';

/** Header the panel sends so versions it saves are recorded as `panel` rather than `api` (R-F1). */
export const SOURCE_HEADER = 'x-switchyard-source';
/** Header naming the person behind a request; "admin" when absent. */
export const WHO_HEADER = 'x-switchyard-who';

/** Who made this request: the header's name (trimmed, at most 100 characters) or "admin". */
export function whoOf(c: Context): string {
  const who = (c.req.header(WHO_HEADER) ?? '').trim().slice(0, 100);
  return who || 'admin';
}

/** Source and author of a save made through the API (R-F1). */
export function saveMetaOf(c: Context): SaveMeta {
  const source = c.req.header(SOURCE_HEADER)?.trim().toLowerCase() === 'panel' ? 'panel' : 'api';
  return { source, who: whoOf(c) };
}
