import type { LayerFiles } from '../../artifacts/load-layer.ts';
import type { ProjectTree } from '../../artifacts/project-layer.ts';
import type { Ctx } from '../../context.ts';
import { listTree, readTreeFile, trustedCommit } from './trusted-tree.ts';
import { loadWorkspace, type Workspace } from './workspace.ts';

/**
 * The ticket's trusted tree, handed to the artifacts layer (which reads, never acts): whether the
 * checkout exists yet, and the base branch's committed files as the host's mirror has them (issue
 * 13 "Untrusted checkout content") — never the checkout's working tree, which the executor's
 * commands and a fork's PR can change.
 */
export function projectTree(ctx: Ctx, ticketId: string): ProjectTree {
  // Asked again until the checkout exists: it may be made during the turn (issue 15).
  let found: Workspace | undefined;
  const workspace = async () => {
    found ??= await loadWorkspace(ctx, ticketId);
    return found;
  };
  return {
    exists: async () => Boolean(await workspace()),
    async files() {
      const got = await workspace();
      const commit = got && (await trustedCommit(ctx, got));
      return got && commit ? committedFiles(ctx, got, commit) : undefined;
    },
  };
}

/** A commit's tree as a layer's files: regular files only, links and folders refused. */
function committedFiles(ctx: Ctx, ws: Workspace, commit: string): LayerFiles {
  const folders = new Map<string, ReturnType<typeof listTree>>();
  const entriesOf = (folder: string) => {
    let got = folders.get(folder);
    if (!got) {
      got = listTree(ctx, ws, commit, folder);
      folders.set(folder, got);
    }
    return got;
  };
  return {
    list: async (folder) => (await entriesOf(folder)).map((e) => e.name),
    async read(rel, maxBytes) {
      const slash = rel.lastIndexOf('/');
      const entries = await entriesOf(rel.slice(0, slash));
      const entry = entries.find((e) => e.name === rel.slice(slash + 1));
      return entry ? readTreeFile(ctx, ws, entry, maxBytes) : { ok: false, why: 'cannot be read' };
    },
  };
}
