import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { enqueueEffect } from '../../outbox/enqueue.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import type { TurnScope } from '../turn-scope.ts';
import { confinePath } from '../workspace/confine-path.ts';
import { addScreenshot, imageKind, ticketPr } from '../workspace/delivery-records.ts';
import { inWorkspace } from '../workspace/work-gate.ts';

/** A PNG narrower or lower than this is a placeholder, not a screenshot. */
const MIN_SIDE = 16;

/**
 * `attach_screenshot({ path, when })` (R-C6: a UI change without a real "before" screenshot is
 * not ready): the file must be in the checkout and be a PNG or JPEG by its magic bytes (and a
 * PNG at least 16×16). It is recorded on the ticket and, once the PR exists, named in a comment.
 */
export function attachScreenshotTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'attach_screenshot',
    description:
      'Attach a screenshot file from the checkout (PNG or JPEG) to the ticket’s PR. when: "before" (the UI as it was, taken before changing it) or "after".',
    parameters: z.object({ path: z.string().min(1), when: z.enum(['before', 'after']) }),
    run: ({ path, when }, call) =>
      inWorkspace(scope, async (ws) => {
        const p = await confinePath(ws.dir, path);
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const bytes = await readFile(p.abs).catch(() => undefined);
        if (!bytes) return toolError(`refused: ${p.rel} does not exist in the checkout`);
        const kind = imageKind(bytes);
        if (!kind) return toolError(`refused: ${p.rel} is not a PNG or JPEG image (R-C6)`);
        if (
          kind === 'png' &&
          (bytes.length < 24 || bytes.readUInt32BE(16) < MIN_SIDE || bytes.readUInt32BE(20) < MIN_SIDE)
        )
          return toolError(`refused: ${p.rel} is a placeholder, not a screenshot (R-C6)`);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        await addScreenshot(ctx, scope.ticket.id, { path: p.rel, when, kind, sha256, at: ctx.now() });
        const pr = await ticketPr(ctx, scope.ticket.id);
        if (pr) {
          const body = `${when === 'before' ? 'Before' : 'After'} screenshot: \`${p.rel}\` on branch \`${ws.branch}\`.`;
          await enqueueEffect(ctx, {
            key: `screenshot:${call.idempotencyKey}`,
            effect: { op: 'github.comment', repo: pr.repo, number: pr.number, body },
            ticketId: scope.ticket.id,
          });
        }
        return toolOk(
          `attached ${p.rel} as the "${when}" screenshot${pr ? ` on ${pr.repo}#${pr.number}` : ' (listed when the PR opens)'}`,
        );
      }),
  });
}
