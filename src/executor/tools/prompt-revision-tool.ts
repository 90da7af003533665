import { z } from 'zod';
import { getVersion, sessionRevisions } from '../../prompts/index.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import type { TurnScope } from '../turn-scope.ts';

const PAGE = 16_000;

/**
 * `read_prompt_revision({ revision?, offset? })` (R-F3, P-93, P-95): the prompt settings of a
 * revision this executor's session worked under — the one it runs under now by default, or an
 * older one it used — read-only, a page at a time. A revision the session never worked under is
 * refused: the host's record of the revisions it used (`sessionRevisions`) decides, not the model.
 */
export function promptRevisionTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'read_prompt_revision',
    description:
      'Read the prompt settings (team paragraphs, section overrides, team skills) of a revision your session worked under: the one you run under now by default, or an older one you used. Read-only. Returns up to 16000 characters from offset (default 0); when more remains the answer ends with the offset to call again with.',
    parameters: z.object({
      revision: z.number().int().min(0).optional(),
      offset: z.number().int().min(0).optional(),
    }),
    async run({ revision, offset = 0 }, call) {
      const used = await sessionRevisions(ctx, call.sessionId);
      const now = used.at(-1);
      if (now === undefined) return toolError('this session has not run under any prompt revision yet');
      const rev = revision ?? now;
      if (!used.includes(rev))
        return toolError(
          `refused: your session did not work under revision ${rev}; it worked under ${used.join(', ')} (R-F3)`,
        );
      const version = await getVersion(ctx, rev);
      if (!version) return toolError(`revision ${rev} is no longer stored`);
      const head = `revision ${rev}${rev === now ? ' (the one you run under now)' : ''} of ${used.join(', ')} you worked under; saved ${version.createdAt} from ${version.source}`;
      const body = JSON.stringify(version.config, null, 2);
      const page = body.slice(offset, offset + PAGE);
      const more =
        offset + PAGE < body.length ? `\n[more: call again with offset ${offset + PAGE}]` : '\n[end]';
      return toolOk(`${head}\n${page}${more}`);
    },
  });
}
