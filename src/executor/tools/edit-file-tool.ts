import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { applyExact, applyLines } from '../files/apply-edit.ts';
import { editedAnswer, lineList, matchLines, noMatch } from '../files/edit-answer.ts';
import { noteFileEdited } from '../files/file-reads.ts';
import { findPassage } from '../files/find-passage.ts';
import { fileLines } from '../files/numbered-lines.ts';
import { staleRefusal } from '../files/stale-refusal.ts';
import { syntaxNews } from '../files/syntax-news.ts';
import { commandOwner } from '../sandbox/probe-sandbox.ts';
import type { TurnScope } from '../turn-scope.ts';
import { readCheckoutFile, writeCheckoutFile } from '../workspace/checkout-file.ts';
import { confinePath } from '../workspace/confine-path.ts';
import { inWorkspace } from '../workspace/work-gate.ts';

/**
 * `edit_file({ path, old, new, replace_all? })` (issue 28): replaces a passage of a file the session
 * has read, found exactly or, failing that, line by line with whitespace and punctuation tolerated;
 * answers with the changed lines numbered, or with where `old` occurs or most nearly does.
 */
export function editFileTool(scope: TurnScope) {
  return defineTool({
    name: 'edit_file',
    description:
      'Replace the passage old with new in a file you have read. old is the file’s exact text (never read_file’s line numbers) and must occur once; add surrounding lines to make it unique, or pass replace_all to change every occurrence.',
    parameters: z.object({
      path: z.string().min(1),
      old: z.string().min(1),
      new: z.string(),
      replace_all: z.boolean().optional(),
    }),
    run: (args, call) =>
      inWorkspace(scope, async (ws) => {
        const p = await confinePath(ws.dir, args.path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const got = await readCheckoutFile(p);
        if (!got.ok)
          return toolError(got.missing ? `${got.refusal}; write_file creates a file` : got.refusal);
        const stale = await staleRefusal(scope.rt.ctx, call.sessionId, p.rel, got.text);
        if (stale) return stale;
        if (args.old.trim() === '')
          return toolError('refused: old is only whitespace; include the lines around the place to change');
        if (args.old === args.new) return toolError('old and new are the same: nothing to change');
        const lines = fileLines(got.text);
        const found = findPassage(got.text, lines, args.old);
        if (found.kind === 'none') return noMatch(p.rel, lines, args.old);
        const at = matchLines(got.text, found);
        if (at.length > 1 && (!args.replace_all || found.kind === 'tolerant'))
          return toolError(
            found.kind === 'tolerant'
              ? `old is not in ${p.rel} exactly; ${found.how} it matches ${at.length} places (lines ${lineList(at)}); copy old exactly from the file, with enough lines to be unique`
              : `old occurs ${at.length} times in ${p.rel} (lines ${lineList(at)}); add surrounding lines to old to make it unique, or pass replace_all: true to change every one`,
          );
        const applied =
          found.kind === 'exact'
            ? applyExact(got.text, args.old, args.new, found.at)
            : applyLines(got.text, found.lines[0] ?? 0, found.span, args.old, args.new);
        const wrote = await writeCheckoutFile(p, applied.text, {
          owner: await commandOwner(scope.rt.ctx.config),
        });
        if (!wrote.ok) return toolError(wrote.refusal);
        await noteFileEdited(scope.rt.ctx, call.sessionId, p.rel, applied.text);
        const answer = editedAnswer(p.rel, found, at, applied);
        const news = await syntaxNews(scope, ws, p.rel, got.text, applied.text);
        return toolOk(news ? `${answer}\n${news}` : answer);
      }),
  });
}
