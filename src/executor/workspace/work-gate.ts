import { type ToolResult, toolError } from '../../session/tool.ts';
import { pendingRequests, type TurnScope } from '../turn-scope.ts';
import { type EnsureResult, ensureWorkspace } from './ensure-workspace.ts';
import type { Workspace } from './workspace.ts';

/**
 * R-C2: work tools are refused while a request of this turn is neither acknowledged nor handed
 * back. Returns the refusal, or undefined when work may go on.
 */
export async function workRefusal(scope: TurnScope): Promise<ToolResult | undefined> {
  const pending = await pendingRequests(scope);
  if (!pending.length) return undefined;
  return toolError(`refused: acknowledge (reply) or hand back ${pending.join(', ')} before working (R-C2)`);
}

/** Runs a work tool in the ticket's checkout once the R-C2 gate passes and the checkout exists. */
export async function inWorkspace(
  scope: TurnScope,
  fn: (ws: Workspace, login: string) => Promise<ToolResult>,
): Promise<ToolResult> {
  const refused = await workRefusal(scope);
  if (refused) return refused;
  const got: EnsureResult = await ensureWorkspace(scope);
  if (!got.ok) return toolError(`no checkout: ${got.why}`);
  return fn(got.ws, got.login);
}
