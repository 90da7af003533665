import type { AnyTool } from '../session/tool.ts';
import type { TurnScope } from './turn-scope.ts';
import { recordWorkspaceStep } from './workspace/record-step.ts';

/**
 * Tools that may change the checkout: files, commands (a failing command may still have written),
 * commits. `record_verification` runs a command too.
 */
const CHANGING = new Set([
  'write_file',
  'edit_file',
  'run_command',
  'record_verification',
  'commit_and_push',
]);
/**
 * Of those, the ones that change nothing when they answer an error (`record_verification`
 * refuses before running anything; `commit_and_push` is not one: its push may fail after it
 * committed). Issue 28: a step that left the checkout as the last recorded one records nothing
 * either (`recordWorkspaceStep`).
 */
const CLEAN_REFUSAL = new Set(['write_file', 'edit_file', 'record_verification']);

/**
 * The tools, each that may change the checkout recording its state once it returned (issue 19
 * "workspaces follow their turn"), under the call's idempotency key: a worker resuming the turn
 * elsewhere restores the checkout to the last recorded step before its next tool call.
 */
export function recordingSteps(scope: TurnScope, tools: AnyTool[]): AnyTool[] {
  return tools.map((t) =>
    CHANGING.has(t.name)
      ? {
          ...t,
          async run(args, call) {
            const r = await t.run(args, call);
            if (r.ok || !CLEAN_REFUSAL.has(t.name))
              await recordWorkspaceStep(scope.rt.ctx, scope.ticket.id, call.idempotencyKey);
            return r;
          },
        }
      : t,
  );
}
