import { toolsForProfile } from '../artifacts/tools-for-profile.ts';
import type { AnyTool } from '../session/tool.ts';
import { draftDoneCheck, verifiedDoneCheck } from './delivery-checks.ts';
import { doneLook } from './delivery-look/delivery-look.ts';
import { withinRules } from './inferred-bounds.ts';
import { handbackTool, threadUnrelatedTool } from './tools/handback-tools.ts';
import { messagePeerTool } from './tools/message-peer-tool.ts';
import { updatePlanTool } from './tools/plan-tool.ts';
import { promptRevisionTool } from './tools/prompt-revision-tool.ts';
import { readChatTool } from './tools/read-chat-tool.ts';
import { readCardTool, readGitHubTool } from './tools/read-source-tools.ts';
import { replyTool } from './tools/reply-tool.ts';
import { reportTool } from './tools/report-tool.ts';
import { workTools } from './tools/work-tools.ts';
import { noteTurnActed } from './turn-acts.ts';
import type { TurnScope } from './turn-scope.ts';

/**
 * An executor's tools (R-C1: nothing that asks a person a question, presents UI or changes a
 * profile — those tools do not exist here), `message_peer` included, cut to the turn's profile
 * and topology (R-G4). A turn without resolved artifacts runs as a `worker` in a `hub`, as before
 * crews existed. An inferred ticket opens a PR only where its rules say so (F-12).
 */
export function executorTools(scope: TurnScope): AnyTool[] {
  const profile = scope.artifacts?.role.profile ?? 'worker';
  const topology = scope.artifacts?.topology ?? 'hub';
  const all = [
    replyTool(scope),
    reportTool(scope, [verifiedDoneCheck, draftDoneCheck], (key, scans) => doneLook(scope, key, scans)),
    handbackTool(scope),
    threadUnrelatedTool(scope),
    // R-H6: the original sources of the ticket's cards, read-only, in every profile.
    readCardTool(scope),
    readGitHubTool(scope),
    readChatTool(scope),
    // R-F3: the prompt revisions its session worked under, read-only, in every profile.
    promptRevisionTool(scope),
    ...workTools(scope),
    messagePeerTool(scope),
    updatePlanTool(scope),
  ];
  return withinRules(scope.ticket, toolsForProfile(profile, all, topology));
}

/** Tools whose success means the turn changed the work (issue 15: follow-ups acted on). */
const ACTING = new Set([
  'write_file',
  'edit_file',
  'commit_and_push',
  'screenshot',
  'open_pr',
  'mark_pr_ready',
  'close_pr',
  'resolve_review_thread',
]);

/**
 * The tools, each that changes the work marking the turn as having acted when it succeeds; the
 * mark is stored, so a turn resumed on another worker keeps it (`turn-acts.ts`).
 */
export function notingActs(scope: TurnScope, tools: AnyTool[]): AnyTool[] {
  return tools.map((t) =>
    ACTING.has(t.name)
      ? {
          ...t,
          async run(args, call) {
            const r = await t.run(args, call);
            if (r.ok) await noteTurnActed(scope.rt.ctx, scope.turnId);
            return r;
          },
        }
      : t,
  );
}
