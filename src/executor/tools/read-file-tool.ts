import { z } from 'zod';
import { defineTool, toolError } from '../../session/tool.ts';
import { binaryKind } from '../files/binary-kind.ts';
import { noteFileSeen } from '../files/file-reads.ts';
import { READ_DEFAULT_LINES, READ_MAX_LINES, readPage } from '../files/read-page.ts';
import type { TurnScope } from '../turn-scope.ts';
import { readCheckoutBytes } from '../workspace/checkout-file.ts';
import { confinePath } from '../workspace/confine-path.ts';
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
        if (!got.ok) return toolError(got.refusal);
        const text = got.data.toString('utf8');
        await noteFileSeen(scope.rt.ctx, call.sessionId, p.rel, text);
        const kind = binaryKind(got.data);
        if (kind)
          return toolError(
            `refused: ${p.rel} is binary (${kind}, ${got.data.length} bytes); read_file shows text only`,
          );
        return readPage(p.rel, text, offset, limit);
      }),
  });
}
