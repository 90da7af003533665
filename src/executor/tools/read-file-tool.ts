import { z } from 'zod';
import { defineTool, type ToolResult, toolError } from '../../session/tool.ts';
import { binaryKind } from '../files/binary-kind.ts';
import { noteFileSeen } from '../files/file-reads.ts';
import { LinePager } from '../files/large-page.ts';
import { pageOf, READ_DEFAULT_LINES, READ_MAX_LINES } from '../files/read-page.ts';
import type { TurnScope } from '../turn-scope.ts';
import { readCheckoutBytes, scanCheckoutFile } from '../workspace/checkout-file.ts';
import { type Confined, confinePath } from '../workspace/confine-path.ts';
import { inWorkspace } from '../workspace/work-gate.ts';

/**
 * `read_file({ path, offset?, limit? })` (issue 28): a page of a text file, each line numbered;
 * binary files are refused with their size and kind. A read is remembered for the session, so
 * `write_file` and `edit_file` may then replace what the model saw (read before write).
 */
export function readFileTool(scope: TurnScope) {
  return defineTool({
    name: 'read_file',
    description: `Read a text file of the checkout: lines numbered like cat -n ("   120\\t…"; the number and tab are not part of the file). Default ${READ_DEFAULT_LINES} lines, at most ${READ_MAX_LINES}; offset is the first line (1-based). The footer says how to continue.`,
    parameters: z.object({
      path: z.string().min(1),
      offset: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional(),
    }),
    run: ({ path, offset, limit }, call) =>
      inWorkspace(scope, async (ws) => {
        const p = await confinePath(ws.dir, path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const got = await readCheckoutBytes(p);
        if (!got.ok && got.tooLarge) return readLargePage(p, offset, limit);
        if (!got.ok) return toolError(got.refusal);
        const text = got.data.toString('utf8');
        const kind = binaryKind(got.data);
        if (kind) {
          await noteFileSeen(scope.rt.ctx, call.sessionId, p.rel, text);
          return toolError(
            `refused: ${p.rel} is binary (${kind}, ${got.data.length} bytes); read_file shows text only`,
          );
        }
        // Issue 48: a page counts for the lines it showed; an empty file or a page past the end, whole.
        const page = pageOf(p.rel, text, offset, limit);
        await noteFileSeen(scope.rt.ctx, call.sessionId, p.rel, text, page.shown);
        return page.result;
      }),
  });
}

/**
 * A page of a file too large to hold (a 30 MB log): streamed, each line counted, only the page kept.
 * Not remembered as read — write_file and edit_file refuse such a file anyway.
 */
async function readLargePage(
  p: Extract<Confined, { ok: true }>,
  offset: number | undefined,
  limit: number | undefined,
): Promise<ToolResult> {
  const pager = new LinePager(offset, limit);
  let kind: string | undefined;
  // The first chunk tells a binary file, which is refused without reading the rest.
  const got = await scanCheckoutFile(p, (chunk) => {
    kind ??= binaryKind(chunk) ?? '';
    if (kind) return false;
    pager.push(chunk);
    return true;
  });
  if (!got.ok) return toolError(got.refusal);
  if (kind)
    return toolError(`refused: ${p.rel} is binary (${kind}, ${got.size} bytes); read_file shows text only`);
  return pager.answer(p.rel, got.bytes);
}
