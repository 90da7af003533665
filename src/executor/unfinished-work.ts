import { stat } from 'node:fs/promises';
import type { TurnCall } from '../session/turn-run.ts';
import { localGit } from './sandbox/local-git.ts';
import type { TurnScope } from './turn-scope.ts';
import { ticketPr } from './workspace/delivery-records.ts';
import { githubAccess } from './workspace/github-access.ts';
import { loadWorkspace } from './workspace/workspace.ts';

/** Tools after which the work changed: a turn that used them owes its requester a `report`. */
const CHANGING = new Set(['write_file', 'edit_file', 'commit_and_push', 'open_pr', 'mark_pr_ready']);

const purposeOf = (args: string): string => {
  try {
    const parsed = JSON.parse(args) as { purpose?: unknown };
    return typeof parsed.purpose === 'string' ? parsed.purpose : 'ack';
  } catch {
    return 'ack';
  }
};

/**
 * What an executor turn about to end leaves unreported (issue 28 "no silent stop"), as one clause
 * for the host's note, or undefined when it may end: nothing, once the turn called `report`;
 * otherwise a request it acknowledged, changes it made, uncommitted changes in the checkout, and
 * the ticket's PR, each named. An answer such as "Next I'll run the tests." ends nothing then.
 */
export async function unfinishedWork(
  scope: TurnScope,
  calls: readonly TurnCall[],
): Promise<string | undefined> {
  if (calls.some((c) => c.name === 'report' && c.ok)) return undefined;
  const reasons: string[] = [];
  const acked = calls.some((c) => c.name === 'reply' && c.ok && purposeOf(c.arguments) === 'ack');
  if (acked) reasons.push('you acknowledged a request and sent no `report`');
  const changed = calls.filter((c) => c.ok && CHANGING.has(c.name)).map((c) => c.name);
  if (changed.length && !acked)
    reasons.push(`you changed the work (${[...new Set(changed)].join(', ')}) and sent no \`report\``);
  const dirty = await uncommitted(scope);
  if (dirty) reasons.push(dirty);
  const pr = await ticketPr(scope.rt.ctx, scope.ticket.id);
  if (pr && (acked || changed.length))
    reasons.push(`the ticket's PR ${pr.repo}#${pr.number} has no report from this turn`);
  return reasons.length ? reasons.join('; ') : undefined;
}

/** The checkout's uncommitted changes, read in the sandbox, as a clause; undefined when clean or absent. */
async function uncommitted(scope: TurnScope): Promise<string | undefined> {
  const { ctx } = scope.rt;
  const ws = await loadWorkspace(ctx, scope.ticket.id);
  if (!ws || !(await stat(`${ws.dir}/.git`).catch(() => undefined))) return undefined;
  const login = await githubAccess(ctx).login();
  const status = await localGit(ctx.config, ws, login)
    .run(['status', '--porcelain', '--untracked-files=all'])
    .catch(() => '');
  const files = status
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(3));
  if (!files.length) return undefined;
  const named = files.slice(0, 5).join(', ') + (files.length > 5 ? `, and ${files.length - 5} more` : '');
  return `the checkout holds uncommitted changes (${named}): commit them with \`commit_and_push\` or remove them`;
}
