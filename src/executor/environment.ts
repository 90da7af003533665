import { sandboxSettings } from './sandbox/sandbox-settings.ts';
import type { TurnScope } from './turn-scope.ts';
import { branchName, loadWorkspace } from './workspace/workspace.ts';

/**
 * R-E8: an executor's ticket-specific values, and the facts of where its commands run (issue 28
 * "the environment, told"): the branch the host made and pushes, its base, the network, and what
 * does not survive from one command to the next.
 */
export async function executorEnvironment(scope: TurnScope): Promise<Record<string, string>> {
  const t = scope.ticket;
  const env: Record<string, string> = {
    ticket: `${t.id}: ${t.title}`,
    requester: t.requester.name ?? t.requester.id,
    'original conversation': t.conversation,
    'opening card': t.openedBy,
  };
  if (t.repo) env.repository = t.repo;
  const ws = await loadWorkspace(scope.rt.ctx, t.id);
  env.branch = ws
    ? `${ws.branch} (made by the host; commit_and_push pushes it), based on ${ws.base}`
    : `${branchName(t.id, t.title)}, made by the host with the checkout`;
  const s = sandboxSettings(scope.rt.ctx.config);
  const network = scope.forkCode || s.network === 'none' ? 'none' : 'outbound only';
  env.commands = `one sandbox per command, checkout at /workspace, network ${network}; cwd, variables, HOME and /tmp do not persist; background processes end with the command; no stdin`;
  return env;
}
