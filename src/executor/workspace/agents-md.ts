import { readFile } from 'node:fs/promises';
import type { TurnScope } from '../turn-scope.ts';
import { confinePath } from './confine-path.ts';
import { loadWorkspace } from './workspace.ts';

/** Longer instructions are cut with a note, so one repository cannot flood the prompt. */
const CAP = 20_000;

/**
 * The repository's `AGENTS.md` from the ticket's checkout (R-C9), or null before the checkout
 * exists or when the repository has none. Read at every model request, so the first request after
 * the checkout is made already carries it. Through `confinePath`: a link out of the checkout is
 * not followed.
 */
export async function readAgentsMd(scope: Pick<TurnScope, 'rt' | 'ticket'>): Promise<string | null> {
  const ws = await loadWorkspace(scope.rt.ctx, scope.ticket.id);
  if (!ws) return null;
  const p = await confinePath(ws.dir, 'AGENTS.md').catch(() => undefined);
  if (!p?.ok) return null;
  const text = await readFile(p.abs, 'utf8').catch(() => null);
  if (text === null) return null;
  return text.length > CAP ? `${text.slice(0, CAP)}\n[… AGENTS.md cut at ${CAP} characters]` : text;
}
