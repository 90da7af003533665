import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ctx } from '../../context.ts';
import { localHostEnv, mirrorDir } from '../../executor/workspace/mirror.ts';
import { isCommitId } from '../../executor/workspace/run-git.ts';
import { runProcess } from '../../executor/workspace/run-process.ts';
import { loadWorkspace } from '../../executor/workspace/workspace-record.ts';

type ReadCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'config'>;

/** Characters of patch the page gets in all, and lines of one file's; the rest is named. */
export const PATCH_CAP = 120_000;
export const FILE_LINES_CAP = 400;
const COMMITS_CAP = 50;
/** Changed files named in one answer; a larger change says how many more. */
export const FILES_CAP = 1000;
const GIT_MS = 20_000;

export interface ChangedFile {
  status: string;
  path: string;
  /** The file's patch (capped); null when it was left out for size. */
  patch: string | null;
  cut: boolean;
}

/** What `GET /api/tickets/:id/changes` answers (issue 49 item 2). */
export interface TicketChanges {
  /** `none`: no checkout yet; `unpushed`: a branch with nothing pushed yet; `ok`: the diff. */
  state: 'none' | 'unpushed' | 'ok';
  repo?: string;
  branch?: string;
  base?: string;
  head?: string;
  /** Set when the answer is one commit's diff against its parent (`?commit=`). */
  commit?: string;
  commits: { sha: string; at: number; subject: string; files: { status: string; path: string }[] }[];
  files: ChangedFile[];
  /** Changed files beyond `FILES_CAP`, not named. */
  moreFiles?: number;
}

/**
 * The ticket's branch against its base, as the host's bare mirror holds it after every push
 * (issue 49 item 2): its commits with the files each touched, and the whole diff per file. The
 * mirror is the host's own (never the sandbox's checkout), git runs with an argument vector and
 * the host's hardened environment, and the patch is capped in size with the files left out named.
 * Everything in it — names, messages, lines — is the branch author's text: the page shows it as
 * text only.
 */
export async function ticketChanges(ctx: ReadCtx, ticketId: string, commit?: string): Promise<TicketChanges> {
  const ws = await loadWorkspace(ctx, ticketId);
  if (!ws) return { state: 'none', commits: [], files: [] };
  const where = { repo: ws.repo, branch: ws.branch, base: ws.base };
  const dir = mirrorDir(ctx, ws.repo);
  const exists = await stat(join(dir, 'HEAD')).then(
    () => true,
    () => false,
  );
  const run = (args: string[], capBytes = 4_000_000) => gitIn(ctx, dir, args, capBytes);
  const head = exists
    ? (await run(['rev-parse', '-q', '--verify', `refs/heads/${ws.branch}^{commit}`]).catch(() => '')).trim()
    : '';
  const base = ws.baseSha && isCommitId(ws.baseSha) ? ws.baseSha : '';
  if (!isCommitId(head) || !base) return { state: 'unpushed', ...where, commits: [], files: [] };
  const commits = commitsOf(
    await run([
      'log',
      '--no-color',
      '-z',
      '--format=%x1e%H%x1f%ct%x1f%s',
      '--name-status',
      `-n${COMMITS_CAP}`,
      `${base}..${head}`,
    ]),
  );
  // One commit of the branch against its parent, or the whole branch against its base.
  if (commit !== undefined && !commits.some((c) => c.sha === commit)) throw new NotOnBranch(commit);
  const [from, to] = commit ? [`${commit}^`, commit] : [base, head];
  const [names, patch] = await Promise.all([
    run(['diff', '--no-color', '-z', '--name-status', '--no-renames', from, to]),
    // The page gets the patch's head (PATCH_CAP); the cap keeps half from the start, whole.
    run(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', from, to], 4 * PATCH_CAP),
  ]);
  const files = filesOf(names, patch);
  const more = files.length - FILES_CAP;
  return {
    state: 'ok',
    ...where,
    head,
    ...(commit ? { commit } : {}),
    commits,
    files: files.slice(0, FILES_CAP),
    ...(more > 0 ? { moreFiles: more } : {}),
  };
}

/** The commit asked for is none of the branch's (`?commit=` names only those the answer lists). */
export class NotOnBranch extends Error {
  override name = 'NotOnBranch' as const;
  readonly commit: string;
  constructor(commit: string) {
    super(`${commit} is not a commit of the ticket's branch`);
    this.commit = commit;
  }
}

/** git in the mirror with the host's environment; stdout, or a thrown error. */
async function gitIn(ctx: ReadCtx, dir: string, args: string[], capBytes: number): Promise<string> {
  const env = { ...localHostEnv(ctx, [['core.quotePath', 'false']]), GIT_DIR: dir };
  const r = await runProcess('git', args, {
    cwd: dir,
    env,
    timeoutMs: GIT_MS,
    capBytes,
  });
  if (r.exitCode !== 0) throw new Error(`git ${args[0]} failed`);
  return r.stdout;
}

/** `--name-status -z` pairs: status, path. */
function pairs(text: string): { status: string; path: string }[] {
  const parts = text.split('\0').filter((p, i, all) => p !== '' || i < all.length - 1);
  const out: { status: string; path: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = (parts[i] ?? '').trim();
    const path = parts[i + 1] ?? '';
    if (status && path) out.push({ status, path });
  }
  return out;
}

function commitsOf(log: string): TicketChanges['commits'] {
  return log
    .split('\x1e')
    .filter((c) => c.includes('\x1f'))
    .map((c) => {
      const [sha = '', at = '0', rest = ''] = c.split('\x1f');
      const nul = rest.indexOf('\0');
      const subject = nul < 0 ? rest : rest.slice(0, nul);
      const files = nul < 0 ? [] : pairs(rest.slice(nul + 1).replace(/^\n/, ''));
      return { sha, at: Number(at) * 1000, subject: subject.slice(0, 300), files };
    });
}

/** Each changed file with its part of the patch, until the patch's cap; later files named only. */
function filesOf(names: string, patch: string): ChangedFile[] {
  const chunks = patch.split(/^(?=diff --git )/m).filter((c) => c.startsWith('diff --git '));
  let budget = PATCH_CAP;
  return pairs(names).map((f, i) => {
    const chunk = chunks[i] ?? null;
    if (chunk === null || budget <= 0) return { ...f, patch: null, cut: true };
    const lines = chunk.split('\n');
    let kept = lines.slice(0, FILE_LINES_CAP).join('\n');
    let cut = lines.length > FILE_LINES_CAP;
    if (kept.length > budget) {
      kept = kept.slice(0, budget);
      cut = true;
    }
    budget -= kept.length;
    return { ...f, patch: kept, cut };
  });
}
