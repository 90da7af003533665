import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleTurn } from '../../src/executor/schedule-turn.ts';
import {
  executorFlow,
  personReviewComment,
  startWorld,
  type World,
} from '../integration/executor/harness.ts';
import { localMessage, send, ticketOpenedBy } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { text, toolCalls } from '../kit/fake-llm.ts';
import { cardsIn, lastToolResults, roleOf } from '../kit/scripted-model.ts';

/**
 * What a sandboxed command (an injected `run_command`, a dependency's `postinstall`, a fork's test
 * script) can write into its checkout's `.git` so that git the *host* runs there would start a
 * program (issue 31, item 1): every config key git honours that names a program, pointed at a
 * script that writes `pwned-<key>` beside the test's repositories — an absolute host path that a
 * program running in the sandbox cannot reach (it sees its checkout only). The `MERGE_HEAD` names
 * a fake-signed tag, so the bot's own `commit_and_push` records a `mergetag` header, and with
 * `log.showSignature` a `git log` of that commit runs the relative `gpg.program`.
 */
function plant(root: string): string {
  const m = `${root}/pwned`;
  const prog = (name: string) =>
    `printf '#!/bin/sh\\nenv > ${m}-${name}\\nexit 1\\n' > evil/${name} && chmod +x evil/${name}`;
  const programs = [
    'gpg',
    'gpgsm',
    'ssh-keygen',
    'ssh-key',
    'ext-diff',
    'textconv',
    'pager',
    'ssh',
    'fsmonitor',
  ];
  return [
    'set -e',
    'mkdir -p evil',
    ...programs.map(prog),
    // A side commit, tagged by a tag object carrying a (fake) PGP signature, named in MERGE_HEAD.
    'side=$(git commit-tree "$(git rev-parse HEAD^{tree})" -p HEAD -m side)',
    `tag=$(printf 'object %s\\ntype commit\\ntag v9\\ntagger eve <eve@example.com> 0 +0000\\n\\nsigned\\n-----BEGIN PGP SIGNATURE-----\\nAAAA\\n-----END PGP SIGNATURE-----\\n' "$side" | git hash-object -t tag -w --stdin)`,
    'echo "$tag" > .git/MERGE_HEAD',
    'echo "Merge tag v9" > .git/MERGE_MSG',
    'git config log.showSignature true',
    'git config gpg.program evil/gpg',
    'git config gpg.openpgp.program evil/gpg',
    'git config gpg.x509.program evil/gpgsm',
    'git config gpg.ssh.program evil/ssh-keygen',
    'git config gpg.ssh.defaultKeyCommand evil/ssh-key',
    'git config diff.external "$PWD/evil/ext-diff"',
    'git config diff.x.textconv "$PWD/evil/textconv"',
    `echo '* diff=x' > .gitattributes`,
    'git config core.pager "$PWD/evil/pager"',
    'git config pager.log "$PWD/evil/pager"',
    'git config core.sshCommand "$PWD/evil/ssh"',
    'git config core.fsmonitor "$PWD/evil/fsmonitor"',
    'git config core.alternateRefsCommand "$PWD/evil/ssh"',
    'echo "export const planted = 1;" > src/login.ts',
  ].join('\n');
}

describe('nothing in a checkout’s .git runs on the host (issue 31, R-H3, R-H4)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-H4: a planted mergetag with log.showSignature and a relative gpg.program — and every other program-naming key — runs nothing on the host through commit_and_push, open_pr, mark_pr_ready, report done or resolve_review_thread', async () => {
    const pwned = () => readdirSync(w.root).filter((n) => n.startsWith('pwned'));
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]),
      () => toolCalls(['run_command', { command: plant(w.root) }]),
      () => toolCalls(['commit_and_push', { message: 'Plant' }]),
      () => toolCalls(['record_verification', { command: 'grep -q planted src/login.ts' }]),
      () => toolCalls(['open_pr', { title: 'Planted', body: 'x' }]),
      // Issue 48: the first shows the diff (git diff on the planted checkout), the second marks it ready.
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'Ready.' }]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please change the login of acme/web'));
    await flow.done(60_000);
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[1]).toContain('exit 0');
    const [, , branch] = /committed ([0-9a-f]{12}) and pushed (\S+)/.exec(r[2] ?? '') ?? [];
    expect(branch).toBeDefined();
    // The attack is live: the pushed commit carries the mergetag that `git log` would verify.
    expect(w.repo.git('cat-file', '-p', `refs/heads/${branch}`)).toContain('mergetag object');
    expect(r[4]).toContain('opened draft PR acme/web#');
    const pr = Number(/acme\/web#(\d+)/.exec(r[4] ?? '')?.[1]);
    expect(r[5]).toMatch(/^Error: Not yet: look at what you deliver/);
    expect(r[6]).not.toContain('refused');
    expect(r[7]).not.toContain('refused');
    expect(pwned()).toEqual([]);

    // A review comment on the PR: resolving it as fixed reads the commit time with `git log`.
    // That time is in whole seconds and resolving allows a second's slack, so the comment arrives
    // over two seconds after the commit, as a reviewer's would; on a fast machine the whole flow
    // above takes less, and the commit would count as made after the comment.
    const committedAt = Number(w.repo.git('log', '-1', '--format=%ct', `refs/heads/${branch}`)) * 1000;
    await sleep(Math.max(0, committedAt + 2_100 - Date.now()));
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    // The review turn gets a fresh checkout from the mirror, so the command plants again first.
    const results: string[][] = [];
    let comment = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'main') return text('Nothing.');
      if (req.messages.at(-1)?.role !== 'tool') {
        [comment = ''] = cardsIn(req);
        return toolCalls(['run_command', { command: plant(w.root) }]);
      }
      results.push(lastToolResults(req));
      if (results.length === 1)
        return toolCalls(['resolve_review_thread', { card: comment, outcome: 'fixed' }]);
      return text('Done.');
    });
    await personReviewComment(w, pr);
    await scheduleTurn(w.app.ctx, ticket);
    await waitFor(() => results.length > 1, 'the plant and the resolve call', 30_000);
    expect(results[0]?.join('\n')).toContain('exit 0');
    expect(pwned()).toEqual([]);
    // Read in the sandbox, the commit time is a number again: the commit predates the comment.
    expect(results[1]?.join('\n')).toContain('refused: no commit since the comment arrived');
  }, 90_000);
});
