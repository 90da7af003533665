import { type ToolResult, toolError, toolOk } from '../../session/tool.ts';
import { fileLines, lineSpan, numberedLine } from './numbered-lines.ts';

/** Lines `read_file` shows without a `limit`, and the most it shows with one. */
export const READ_DEFAULT_LINES = 500;
export const READ_MAX_LINES = 2000;
/** Bytes of numbered lines one answer carries at most: 2,000 lines of minified code would be megabytes. */
export const READ_MAX_BYTES = 100_000;

/**
 * `read_file`'s answer for `text` (issue 28): lines `offset`.. numbered like `cat -n`, at most
 * `limit` of them and `READ_MAX_BYTES`, with a footer that says where the page ends and which
 * `offset` continues — the same words whatever cut it short, so the model always knows the next call.
 */
export function readPage(rel: string, text: string, offset = 1, limit = READ_DEFAULT_LINES): ToolResult {
  return pageOf(rel, text, offset, limit).result;
}

/** The page and (issue 48) which lines it showed (none past the end; an empty file is seen whole). */
export function pageOf(
  rel: string,
  text: string,
  offset = 1,
  limit = READ_DEFAULT_LINES,
): { result: ToolResult; shown?: { from: number; to: number; total: number } } {
  const lines = fileLines(text);
  if (lines.length === 0) return { result: toolOk(`(${rel} is empty: 0 lines)`) };
  if (offset > lines.length)
    return {
      result: toolError(`offset ${offset} is past the end: ${rel} has ${lines.length} lines`),
      shown: { from: offset, to: offset - 1, total: lines.length },
    };
  const want = Math.min(limit, READ_MAX_LINES);
  const rows: string[] = [];
  let bytes = 0;
  let last = offset - 1;
  while (last < lines.length && rows.length < want) {
    const row = numberedLine(last + 1, lines[last] ?? '');
    bytes += Buffer.byteLength(row) + 1;
    if (rows.length > 0 && bytes > READ_MAX_BYTES) break;
    rows.push(row);
    last++;
  }
  const notes = [`${lineSpan(offset, last)} of ${lines.length}`];
  if (rows.length < want && last < lines.length) notes.push(`cut at ${READ_MAX_BYTES} bytes`);
  if (limit > READ_MAX_LINES) notes.push(`limit is at most ${READ_MAX_LINES}`);
  if (last < lines.length) notes.push(`offset=${last + 1} to continue`);
  return {
    result: toolOk(`${rows.join('\n')}\n(${notes.join('; ')})`),
    shown: { from: offset, to: last, total: lines.length },
  };
}
