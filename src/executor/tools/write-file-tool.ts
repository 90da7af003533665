import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { noteFileSeen } from '../files/file-reads.ts';
import { staleRefusal } from '../files/stale-refusal.ts';
import { syntaxNews } from '../files/syntax-news.ts';
import { commandOwner } from '../sandbox/probe-sandbox.ts';
import type { TurnScope } from '../turn-scope.ts';
import { readCheckoutFile, writeCheckoutFile } from '../workspace/checkout-file.ts';
import { confinePath } from '../workspace/confine-path.ts';
import { inWorkspace } from '../workspace/work-gate.ts';

/**
 * `write_file({ path, content })`: creates a file, or replaces one the session read (or wrote)
 * and that has not changed since (issue 28, read before write).
 */
export function writeFileTool(scope: TurnScope) {
  return defineTool({
    name: 'write_file',
    description:
      'Create a file of the checkout, or replace a whole file you have read. To change part of an existing file use edit_file.',
    parameters: z.object({ path: z.string().min(1), content: z.string() }),
    run: ({ path, content }, call) =>
      inWorkspace(scope, async (ws) => {
        const p = await confinePath(ws.dir, path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const before = await readCheckoutFile(p);
        const existed = before.ok;
        if (!before.ok && !before.missing) return toolError(before.refusal);
        if (before.ok) {
          const stale = await staleRefusal(scope.rt.ctx, call.sessionId, p.rel, before.text, true);
          if (stale) return stale;
        }
        const wrote = await writeCheckoutFile(p, content, {
          owner: await commandOwner(scope.rt.ctx.config),
        });
        if (!wrote.ok) return toolError(wrote.refusal);
        await noteFileSeen(scope.rt.ctx, call.sessionId, p.rel, content);
        const said = `wrote ${p.rel} (${Buffer.byteLength(content)} bytes${existed ? '' : ', a new file'})`;
        const news = await syntaxNews(scope, ws, p.rel, before.ok ? before.text : undefined, content);
        return toolOk(news ? `${said}\n${news}` : said);
      }),
  });
}
