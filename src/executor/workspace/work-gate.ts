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
  try {
    const got: EnsureResult = await ensureWorkspace(scope);
    if (!got.ok) return toolError(`no checkout: ${got.why}`);
    return await fn(got.ws, got.login);
  } catch (err) {
    const answer = asToolError(err);
    if (answer) return answer;
    throw err;
  }
}

/**
 * Failures the model can act on become its tool result: git's own complaint (a rejected push, a
 * bad ref) and GitHub's 4xx answers. Anything else (5xx, network, Redis) is the infrastructure's:
 * it rejects the turn, whose job retries and resumes under the same idempotency keys.
 */
export function asToolError(err: unknown): ToolResult | undefined {
  const e = err as { name?: string; status?: number; message?: string };
  if (e.name === 'GitError') return toolError(e.message ?? 'git failed');
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.status !== 429)
    return toolError(`GitHub answered ${e.status}: ${e.message ?? ''}`);
  return undefined;
}
