import {
  type BranchChange,
  branchChanges,
  type ChangedTest,
  PLAIN_DIFF,
  testsAmong,
} from './changed-tests.ts';

interface Git {
  run(args: string[]): Promise<string>;
}

/**
 * What one delivery call reads of the branch at one head (issue 48): its changes since the fork
 * point, its patch with per-file counts, its changed tests — each read once, when first asked,
 * whoever asks (a `done` report's verification line and its look share them).
 */
export interface BranchScan {
  changes(): Promise<{ fork: string; changes: BranchChange[] }>;
  /** `git diff --numstat -p -U3` from the fork point, split into its counts and its patch. */
  patch(): Promise<{ numstat: string; diff: string }>;
  tests(): Promise<ChangedTest[]>;
}

const once = <T>(f: () => Promise<T>) => {
  let got: Promise<T> | undefined;
  return () => (got ??= f());
};

/** The scan of the branch at `head` against `base`, each part read once. */
export function branchScan(g: Git, base: string, head: string): BranchScan {
  const changes = once(() => branchChanges(g, base, head));
  const patch = once(async () => {
    const { fork } = await changes();
    // One run: the counts per file, then the patch after the first `diff --git` line.
    const both = await g.run(['diff', '--numstat', '-p', '-U3', '--no-renames', ...PLAIN_DIFF, fork, head]);
    const at = both.indexOf('diff --git ');
    return at < 0 ? { numstat: both, diff: '' } : { numstat: both.slice(0, at), diff: both.slice(at) };
  });
  const tests = once(async () => {
    const { fork, changes: all } = await changes();
    return testsAmong(g, fork, head, all, (await patch()).diff);
  });
  return { changes, patch, tests };
}

/** Scans by base and head for one call: asked twice for the same head, the same scan. */
export type BranchScans = (g: Git, base: string, head: string) => BranchScan;

export function branchScans(): BranchScans {
  const made = new Map<string, BranchScan>();
  return (g, base, head) => {
    const key = `${base}\0${head}`;
    const scan = made.get(key) ?? branchScan(g, base, head);
    made.set(key, scan);
    return scan;
  };
}
