import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspacePaths } from '../../../src/executor/workspace/workspace.ts';
import { workspaceStepId } from '../../../src/executor/workspace/workspace-step-record.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { ticketOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);
/** Files are written with run_command: what this file tests is the commit, not the file tools. */
const FIX = `printf '%s\\n' 'export const next = (u: string) => u || "/";' > src/login.ts`;
const fixLogin = () => toolCalls(['run_command', { command: FIX }]);
const VERIFY = 'grep -q "||" src/login.ts';
const SHA12 = '[0-9a-f]{12}';

describe('issue 28: commit_and_push and record_verification, as the model reads them', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => w.close());

  const run = async (steps: Parameters<typeof executorFlow>[1]) => {
    const flow = executorFlow(w.llm, steps);
    await send(w.app.ctx, localMessage('Please fix the login redirect in acme/web'));
    await flow.done();
    return flow.results.map((x) => x.join('\n---\n'));
  };
  const branchFiles = (commit: string) => w.repo.git('ls-tree', '-r', '--name-only', commit).split('\n');

  it('bad habit "commits in the shell": git commit in run_command, then commit_and_push pushes that commit (saying so, with its stat) and open_pr succeeds — recovered within 1 step', async () => {
    const r = await run([
      (_r, card) => ack(card),
      fixLogin,
      () => toolCalls(['run_command', { command: 'git add -A && git commit -q -m x' }]),
      () => toolCalls(['commit_and_push', { message: 'Fix the login redirect' }]),
      () => toolCalls(['open_pr', { title: 'Fix the login redirect', body: 'Falls back to /.' }]),
    ]);
    expect(r[2]).toMatch(/^exit 0/);
    const pushed = new RegExp(
      `^nothing new to commit; pushed origin/main\\.\\.(${SHA12}) to (sy/T\\d+-\\S+)\\n`,
    );
    expect(r[3]).toMatch(pushed);
    expect(r[3]).toContain(' src/login.ts | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)');
    expect(r[3]).not.toContain('new files');
    expect(r[4]).toContain('opened draft PR acme/web#1');
    const [, short, branch] = pushed.exec(r[3] ?? '') ?? [];
    expect(w.repo.git('rev-parse', branch as string).slice(0, 12)).toBe(short);
    expect(w.repo.git('log', '--format=%s', '-n', '1', branch as string)).toBe('x');
  });

  it('paths stages only what was named (a path outside the checkout refused); new files are named and likely scratch warned about; nothing to commit and nothing to push says so', async () => {
    const r = await run([
      (_r, card) => ack(card),
      () =>
        toolCalls([
          'run_command',
          {
            command: `${FIX} && mkdir docs && echo '# Guide' > docs/guide.md && echo trace > debug.log && echo todo > notes.tmp && head -c 1200000 /dev/zero > data.bin`,
          },
        ]),
      () => toolCalls(['commit_and_push', { message: 'Fix', paths: ['src/login.ts', '../elsewhere/x'] }]),
      () => toolCalls(['commit_and_push', { message: 'Fix the login redirect', paths: ['src/login.ts'] }]),
      () => toolCalls(['commit_and_push', { message: 'Nothing here', paths: ['src/login.ts'] }]),
      () => toolCalls(['commit_and_push', { message: 'Add the guide' }]),
      () => toolCalls(['commit_and_push', { message: 'Again' }]),
    ]);
    expect(r[2]).toBe('Error: refused, nothing committed: "../elsewhere/x" climbs out with ".."');
    const first = new RegExp(`^committed (${SHA12}) and pushed (sy/T\\d+-\\S+)\\n`);
    expect(r[3]).toMatch(first);
    expect(r[3]).toContain(' src/login.ts | 2 +-\n 1 file changed');
    const [, sha, branch] = first.exec(r[3] ?? '') ?? [];
    // The first commit holds the named file only; the others came with the later commit.
    expect(branchFiles(sha as string)).not.toContain('docs/guide.md');
    expect(w.repo.git('diff', '--name-only', `${sha}~1`, sha as string)).toBe('src/login.ts');
    expect(r[4]).toBe(
      `Error: nothing to commit in src/login.ts and nothing to push: HEAD ${sha} is already pushed to ${branch} (other files have changes: name them in paths, or leave paths out)`,
    );
    expect(r[5]).toMatch(new RegExp(`^committed ${SHA12} and pushed ${branch}\\n`));
    expect(r[5]).toContain('new files: data.bin, debug.log, docs/guide.md, notes.tmp');
    expect(r[5]).toContain(
      'warning: these new files look like scratch or build output: data.bin (over 1 MB), debug.log (*.log), notes.tmp (*.tmp). If not part of the change, take it out (run_command: `git rm --cached <file>`, then delete it or add it to .gitignore) and commit_and_push again.',
    );
    expect(r[6]).toMatch(
      new RegExp(
        `^Error: nothing to commit and nothing to push: HEAD ${SHA12} is already pushed to ${branch}$`,
      ),
    );
  });

  it('record_verification refuses no-ops; a verification before the commit counts for HEAD of the same files (mark_pr_ready without a rerun); PR body and done report carry "Verified: …"', async () => {
    const r = await run([
      (_r, card) => ack(card),
      fixLogin,
      () =>
        toolCalls(
          ['record_verification', { command: 'true' }],
          ['record_verification', { command: 'echo ok' }],
          ['record_verification', { command: 'exit 0' }],
          ['record_verification', { command: 'npm test || true' }],
        ),
      () => toolCalls(['record_verification', { command: VERIFY }]),
      () => toolCalls(['commit_and_push', { message: 'Fix the login redirect' }]),
      () => toolCalls(['open_pr', { title: 'Fix the login redirect', body: 'Falls back to /.' }]),
      // Issue 48: the first call that passes the checks shows the diff; the second marks it ready.
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'PR ready for review.' }]),
    ]);
    const [t, e, x, masked] = (r[2] ?? '').split('\n---\n');
    expect(t).toBe(
      'Error: refused: "true" is no verification: it runs only no-op commands (true, :, echo, printf, exit, test, cat, ls…). A verification runs what checks the change — the tests, a build, a type check or a linter (e.g. `npm test`) — and its exit code must be theirs: not only no-ops, and no `|| true`, `; echo …`, `| tail` (without `set -o pipefail`) or `&` after the check.',
    );
    expect(e).toMatch(/^Error: refused: "echo ok" is no verification: it runs only no-op commands/);
    expect(x).toMatch(/^Error: refused: "exit 0" is no verification: it runs only no-op commands/);
    expect(masked).toMatch(
      /^Error: refused: "npm test \|\| true" is no verification: its exit code is that of "true", which checks nothing, not that of the check before it\./,
    );
    const before = new RegExp(
      `^recorded at (${SHA12}) \\(uncommitted changes present: this counts for a commit of exactly these files; commit them as they are\\): exit 0`,
    );
    expect(r[3]).toMatch(before);
    const ranAt = before.exec(r[3] ?? '')?.[1];
    const head = new RegExp(`^committed (${SHA12}) and pushed`).exec(r[4] ?? '')?.[1] as string;
    expect(r[5]).toContain('opened draft PR acme/web#1');
    expect(r[6]).toMatch(/^Error: Not yet: look at what you deliver before marking the PR ready/);
    expect(r[7]).toBe('acme/web#1 is ready for review');
    const line = `Verified: \`${VERIFY}\` → exit 0 at \`${head}\` (ran at \`${ranAt}\` with uncommitted changes, on the same files)`;
    expect(w.gh.callsTo('POST', '/repos/acme/web/pulls')[0]?.body).toMatchObject({
      body: expect.stringContaining(line),
    });
    expect(r[8]).toBe(`recorded done\n${line}`);
  });

  it('a verification of other files does not count: the tree changed after it ran, so mark_pr_ready and done are refused', async () => {
    const r = await run([
      (_r, card) => ack(card),
      fixLogin,
      () => toolCalls(['record_verification', { command: VERIFY }]),
      () => toolCalls(['run_command', { command: "echo '# web, changed after the tests' > README.md" }]),
      () => toolCalls(['commit_and_push', { message: 'Fix the login redirect' }]),
      () => toolCalls(['open_pr', { title: 'Fix the login redirect', body: 'Falls back to /.' }]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'Done.' }]),
    ]);
    expect(r[2]).toMatch(/\): exit 0/);
    expect(r[4]).toMatch(/^committed/);
    expect(w.gh.callsTo('POST', '/repos/acme/web/pulls')[0]?.body).toMatchObject({
      body: expect.not.stringContaining('Verified:'),
    });
    expect(r[6]).toMatch(
      new RegExp(
        `^Error: refused: no passing verification at HEAD ${SHA12} \\(earlier ones ran on other files\\); run record_verification on the files you commit \\(R-C6\\)$`,
      ),
    );
    expect(r[7]).toMatch(
      new RegExp(
        `^Error: refused: not done — no verification passed at HEAD ${SHA12} \\(a command run with record_verification on HEAD's files, exit 0\\); run it, or report working \\(R-C6\\)$`,
      ),
    );
  });

  it.each([
    [
      'origin/main moved up to HEAD',
      'git update-ref refs/remotes/origin/main HEAD',
      `^Error: refused: not done — no verification passed at HEAD ${SHA12} `,
    ],
    [
      'the .git folder moved away',
      'mv .git .g',
      '^Error: refused: not done — the checkout has no .git \\(a command moved or removed it\\)',
    ],
  ])(
    'R-C6: "done" on an unverified commit stays refused with %s by a command',
    async (_what, command, refusal) => {
      const r = await run([
        (_r, card) => ack(card),
        fixLogin,
        () => toolCalls(['commit_and_push', { message: 'Fix the login redirect' }]),
        () => toolCalls(['run_command', { command }]),
        () => toolCalls(['report', { status: 'done', summary: 'Done.' }]),
      ]);
      expect(r[2]).toMatch(/^committed/);
      expect(r[3]).toContain('exit 0');
      expect(r[4]).toMatch(new RegExp(refusal));
    },
  );

  it.each([
    [
      'an edit hidden by assume-unchanged',
      "echo '# web, edited' > README.md && git update-index --assume-unchanged README.md",
    ],
    [
      'an edit hidden by skip-worktree',
      "echo '# web, edited' > README.md && git update-index --skip-worktree README.md",
    ],
    [
      'a file only .git/info/exclude ignores',
      "echo 'module.exports = 1;' > helper.js && echo helper.js >> .git/info/exclude",
    ],
  ])('R-C6: record_verification sees %s: the files it ran on are not HEAD’s', async (_what, command) => {
    const r = await run([
      (_r, card) => ack(card),
      fixLogin,
      () => toolCalls(['commit_and_push', { message: 'Fix the login redirect' }]),
      () => toolCalls(['run_command', { command }]),
      () => toolCalls(['record_verification', { command: VERIFY }]),
      () => toolCalls(['report', { status: 'done', summary: 'Done.' }]),
    ]);
    expect(r[3]).toContain('exit 0');
    expect(r[4]).toMatch(new RegExp(`^recorded at ${SHA12} \\(uncommitted changes present: `));
    expect(r[5]).toMatch(/^Error: refused: not done — no verification passed at HEAD /);
  });

  it('R-C6: record_verification refuses a checkout whose config names a filter driver, and runs nothing', async () => {
    const r = await run([
      (_r, card) => ack(card),
      fixLogin,
      () =>
        toolCalls([
          'run_command',
          {
            command:
              "git config filter.same.clean 'git show HEAD:README.md' && echo '* filter=same' > .git/info/attributes",
          },
        ]),
      () => toolCalls(['record_verification', { command: 'touch ran.txt && grep -q "||" src/login.ts' }]),
      () => toolCalls(['run_command', { command: 'ls ran.txt' }]),
    ]);
    expect(r[2]).toContain('exit 0');
    expect(r[3]).toBe(
      'Error: refused: the checkout’s .git/config names filter drivers (filter.*), and git would record what their programs answer instead of the files; remove them (git config --remove-section filter.<name>)',
    );
    expect(r[4]).toContain('No such file');
  });

  it('R-C6: a UI change still needs its screenshots after a command moves origin/main up to HEAD', async () => {
    const r = await run([
      (_r, card) => ack(card),
      () => toolCalls(['run_command', { command: "echo 'body { color: navy; }' > web/style.css" }]),
      () => toolCalls(['commit_and_push', { message: 'Navy' }]),
      () => toolCalls(['record_verification', { command: 'grep -q navy web/style.css' }]),
      () => toolCalls(['open_pr', { title: 'Navy', body: 'Colour.' }]),
      () => toolCalls(['run_command', { command: 'git update-ref refs/remotes/origin/main HEAD' }]),
      () => toolCalls(['mark_pr_ready', {}]),
    ]);
    expect(r[4]).toMatch(/^opened draft PR/);
    expect(r[5]).toContain('exit 0');
    expect(r[6]).toMatch(
      /^Error: refused: the change touches UI files \(web\/style\.css\) and has no "before" screenshot/,
    );
  });

  const gone = (req: Parameters<typeof ticketOf>[0]) => {
    // The checkout goes between the steps, as a release or a turn on another machine would see it.
    rmSync(workspacePaths(w.app.ctx, ticketOf(req) ?? '').dir, { recursive: true, force: true });
    return toolCalls(['report', { status: 'done', summary: 'Done.' }]);
  };

  it('R-C6: with no checkout on this machine (released, or made on another worker), "done" on an unverified push is refused', async () => {
    const r = await run([
      (_r, card) => ack(card),
      fixLogin,
      () => toolCalls(['commit_and_push', { message: 'Fix' }]),
      gone,
    ]);
    expect(r[2]).toMatch(/^committed/);
    expect(r[3]).toMatch(
      new RegExp(
        `^Error: refused: not done — no verification passed at ${SHA12}, the branch as last pushed `,
      ),
    );
  });

  it('R-C6: with no checkout on this machine, "done" on a verified push passes with its Verified line', async () => {
    const r = await run([
      (_r, card) => ack(card),
      fixLogin,
      () => toolCalls(['record_verification', { command: VERIFY }]),
      () => toolCalls(['commit_and_push', { message: 'Fix' }]),
      gone,
    ]);
    expect(r[3]).toMatch(/^committed/);
    expect(r[4]).not.toMatch(/^Error/);
    expect(r[4]).toContain('Verified: `grep -q "||" src/login.ts` → exit 0 at `');
  });

  it('issue 28: a read-only run_command (cat README.md) records no workspace step; a changing one does', async () => {
    const ids: Promise<string | undefined>[] = [];
    const stepAfterLast = (req: Parameters<typeof ticketOf>[0]) =>
      ids.push(workspaceStepId(w.app.ctx, ticketOf(req) ?? ''));
    const r = await run([
      (_r, card) => ack(card),
      fixLogin,
      (req) => {
        stepAfterLast(req);
        return toolCalls(['run_command', { command: 'cat README.md' }]);
      },
      (req) => {
        stepAfterLast(req);
        return toolCalls(['run_command', { command: 'echo more >> README.md' }]);
      },
      (req) => {
        stepAfterLast(req);
        return toolCalls(['run_command', { command: 'git status --porcelain' }]);
      },
    ]);
    expect(r[2]).toBe('exit 0\n# web\n');
    const [afterWrite, afterCat, afterAppend] = await Promise.all(ids);
    expect(afterWrite).toMatch(/^[0-9a-f-]{36}$/);
    expect(afterCat).toBe(afterWrite);
    expect(afterAppend).toMatch(/^[0-9a-f-]{36}$/);
    expect(afterAppend).not.toBe(afterWrite);
  });
});
