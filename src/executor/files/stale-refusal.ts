import type { Ctx } from '../../context.ts';
import { type ToolResult, toolError } from '../../session/tool.ts';
import { staleFile } from './file-reads.ts';

/**
 * Read before write (issue 28): `write_file` and `edit_file` refuse to replace a file the session
 * never read, or one that changed since it last read or wrote it — a model writing from memory
 * (after a compaction, say) or over a command's output would silently lose lines. Undefined when
 * the change may go on.
 */
export async function staleRefusal(
  ctx: Pick<Ctx, 'redis' | 'keys'>,
  sessionId: string,
  rel: string,
  current: string,
  whole = false,
): Promise<ToolResult | undefined> {
  const stale = await staleFile(ctx, sessionId, rel, current);
  // Issue 48: replacing a whole file needs all of it seen; a page is enough for a passage.
  if (stale === 'partly' && whole)
    return toolError(
      `refused: you have seen only part of ${rel} (a page of read_file), and write_file would replace all of it; change it with edit_file, or read_file the rest first`,
    );
  if (stale === 'unread')
    return toolError(
      `refused: ${rel} exists and you have not read it in this session; read_file it first, then change it (edit_file for a passage)`,
    );
  if (stale === 'changed')
    return toolError(
      `refused: ${rel} changed since you last read or wrote it (a command may have rewritten it); read_file it again, then change it`,
    );
  return undefined;
}
