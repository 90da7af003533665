import type { TurnScope } from '../turn-scope.ts';
import { readTrustedFile } from './trusted-tree.ts';
import { loadWorkspace } from './workspace.ts';

/** Longer instructions are cut with a note, so one repository cannot flood the prompt. */
const CAP = 20_000;
/** A file this much larger is not read at all. */
const MAX_BYTES = 1024 * 1024;

/**
 * The repository's `AGENTS.md` (R-C9), or null before the checkout exists or when the repository
 * has none. Read from the base branch's committed tree in the host's mirror (issue 13), never from
 * the checkout's working tree: neither an edit the executor made nor a fork PR's version reaches
 * the prompt. Read at every model request, so the first request after the checkout is made
 * already carries it (issue 15); the content of a commit is cached.
 */
export async function readAgentsMd(scope: Pick<TurnScope, 'rt' | 'ticket'>): Promise<string | null> {
  const { ctx } = scope.rt;
  const ws = await loadWorkspace(ctx, scope.ticket.id);
  if (!ws) return null;
  const text = await readTrustedFile(ctx, ws, 'AGENTS.md', MAX_BYTES);
  if (text === null) return null;
  return text.length > CAP ? `${text.slice(0, CAP)}\n[… AGENTS.md cut at ${CAP} characters]` : text;
}
