import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicToken } from '../../kit/fake-git-http.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { githubPayloads, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, SECRETS, startWorld, type World } from './harness.ts';

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString();
const WORKFLOW = '.github/workflows/ci.yml';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);
/** The executor changes the login and, on its own, CI: a job that could read the repository's secrets. */
const writeWithWorkflow = () =>
  toolCalls(
    ['write_file', { path: WORKFLOW, content: 'on: push\njobs:\n  leak:\n    runs-on: ubuntu-latest\n' }],
    ['read_file', { path: 'src/login.ts' }],
    ['write_file', { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/";\n' }],
  );
const pushed = /committed ([0-9a-f]{12}) and pushed (sy\/T\d+-\S+)/;

describe('issue 31: no silent CI escalation — a push changing CI needs an admin’s request for it', () => {
  let w: World;
  beforeEach(async () => {
    // App mode: every push token is minted, so what it asks GitHub for shows.
    w = await startWorld({ GITHUB_TOKEN: '', GITHUB_APP_ID: '42', GITHUB_PRIVATE_KEY: PRIVATE_KEY });
    w.gh.serveGit('acme/web', w.repo.bare);
  });
  afterEach(async () => w.close());

  const workflowTokens = () => w.gh.apps.tokens.filter((t) => t.permissions.workflows);
  const botBranches = () => w.repo.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/sy/');
  const filesOn = (branch: string) => w.repo.git('ls-tree', '-r', '--name-only', branch).split('\n');
  /** The tokens the pushes that reached GitHub were made with. */
  const pushTokens = () =>
    w.gh.calls
      .filter((c) => c.path === '/git/acme/web.git/git-receive-pack' && c.status === 200)
      .map((c) => w.gh.apps.tokens.find((t) => t.token === basicToken(c.auth)));

  /**
   * `author` (with `permission` on acme/web) asks the bot on an issue of acme/web, or in the
   * conversation of pull request `pr`.
   */
  async function askOnGitHub(author: string, permission: 'admin' | 'write', body: string, pr?: number) {
    w.gh.setPermission('acme/web', author, permission);
    const number =
      pr ?? w.gh.addIssue('acme/web', { title: 'Lint in CI', user: { login: author, type: 'User' } }).number;
    const payload = githubPayloads.mentionComment({
      repo: 'acme/web',
      number,
      isPullRequest: pr !== undefined,
      author,
      commentId: 31_000 + number,
      body: `@${w.gh.botLogin} ${body}`,
    });
    const res = await sendGitHubEvent(w.app.url, 'issue_comment', payload, {
      secret: SECRETS.GITHUB_WEBHOOK_SECRET,
    });
    expect(res.status).toBe(202);
  }

  it('a workflow the executor adds by itself is refused with an answer saying what to do; without it the push lands, and no token ever asks for workflows', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      writeWithWorkflow,
      () => toolCalls(['commit_and_push', { message: 'Fix the login' }]),
      () => toolCalls(['run_command', { command: 'rm -r .github' }]),
      () => toolCalls(['commit_and_push', { message: 'Fix the login' }]),
    ]);
    // The panel's chat: its operator is nobody GitHub knows as an admin of acme/web.
    await send(w.app.ctx, localMessage('Please fix the login redirect in acme/web'));
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[2]).toMatch(
      /^Error: refused, nothing committed or pushed: these changes touch CI configuration \(\.github\/workflows\/ci\.yml\)\. A CI change is pushed only when a person with admin permission on acme\/web asked for it/,
    );
    expect(r[2]).toContain('git checkout HEAD -- <file>');
    expect(r[2]).toContain('human_action');
    expect(r[4]).toMatch(pushed);
    const branch = pushed.exec(r[4] ?? '')?.[2] as string;
    expect(botBranches()).toBe(branch);
    expect(filesOn(branch)).toContain('src/login.ts');
    expect(filesOn(branch).filter((f) => f.startsWith('.github/'))).toEqual([]);
    expect(pushTokens().map((t) => t?.permissions)).toEqual([{ metadata: 'read', contents: 'write' }]);
    expect(workflowTokens()).toEqual([]);
  });

  it('a workflow committed with run_command is caught at the push: nothing is pushed', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      writeWithWorkflow,
      () =>
        toolCalls([
          'run_command',
          { command: 'git add -A && git -c user.name=x -c user.email=x@example.com commit -qm ci' },
        ]),
      () =>
        toolCalls(
          ['read_file', { path: 'README.md' }],
          ['write_file', { path: 'README.md', content: '# web, fixed\n' }],
        ),
      () => toolCalls(['commit_and_push', { message: 'Readme' }]),
    ]);
    await send(w.app.ctx, localMessage('Please fix the login redirect in acme/web'));
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[2]).toContain('exit 0');
    expect(r[4]).toMatch(
      /^Error: refused, nothing pushed: commits not yet pushed change CI configuration \(\.github\/workflows\/ci\.yml\)\. .*git reset --soft/,
    );
    expect(botBranches()).toBe('');
    expect(workflowTokens()).toEqual([]);
  });

  it('a fork’s PR head is not GitHub’s own: its CI change, merged with run_command, is caught at the push', async () => {
    // GitHub keeps a fork's PR head in the base repository (refs/pull/N/head); pushing its commits
    // to a branch there runs them as the repository's own CI, with its secrets.
    const inBare = (args: string[], input?: string, env: Record<string, string> = {}) =>
      execFileSync('git', args, {
        cwd: w.repo.bare,
        input,
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_NAME: 'eve', GIT_AUTHOR_EMAIL: 'eve@example.com', ...env },
      }).trim();
    const blob = inBare(
      ['hash-object', '-w', '--stdin'],
      'on: push\njobs:\n  leak:\n    runs-on: ubuntu-latest\n',
    );
    const index = { GIT_INDEX_FILE: `${w.root}/fork-index` };
    inBare(['read-tree', 'main'], undefined, index);
    inBare(['update-index', '--add', '--cacheinfo', `100644,${blob},${WORKFLOW}`], undefined, index);
    const tree = inBare(['write-tree'], undefined, index);
    const head = inBare(['commit-tree', tree, '-p', 'main', '-m', 'Add CI'], undefined, {
      GIT_COMMITTER_NAME: 'eve',
      GIT_COMMITTER_EMAIL: 'eve@example.com',
    });
    const pr = w.gh.addPull('acme/web', {
      title: 'Add CI',
      head: 'eve:ci',
      user: { login: 'eve', type: 'User' },
    });
    pr.head = { ...pr.head, sha: head, repo: { full_name: 'eve/web' } };
    inBare(['update-ref', `refs/pull/${pr.number}/head`, head]);

    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls([
          'run_command',
          {
            command: `git -c user.name=x -c user.email=x@example.com merge -q --no-edit origin/pull/${pr.number}`,
          },
        ]),
      () => toolCalls(['commit_and_push', { message: 'Take the PR' }]),
    ]);
    await askOnGitHub('ada', 'write', 'please fix the login redirect here', pr.number);
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[1]).toContain('exit 0');
    expect(r[2]).toMatch(
      /^Error: refused, nothing pushed: commits not yet pushed change CI configuration \(\.github\/workflows\/ci\.yml\)/,
    );
    expect(botBranches()).toBe('');
    expect(workflowTokens()).toEqual([]);
  });

  it('an admin of the repository asking for the workflow change by its path gets it pushed, with the workflows permission', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      writeWithWorkflow,
      () => toolCalls(['commit_and_push', { message: 'Add a lint job' }]),
    ]);
    await askOnGitHub('ada', 'admin', `please add a lint job to ${WORKFLOW} and fix the login`);
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[2]).toMatch(pushed);
    const branch = pushed.exec(r[2] ?? '')?.[2] as string;
    expect(filesOn(branch)).toContain(WORKFLOW);
    expect(pushTokens().map((t) => t?.permissions)).toEqual([
      { metadata: 'read', contents: 'write', workflows: 'write' },
    ]);
  });

  it.each([
    ['a writer naming the workflow', 'bob', 'write', `please add a lint job to ${WORKFLOW}`],
    ['an admin not asking for it', 'ada', 'admin', 'please fix the login redirect'],
  ] as const)(
    '%s gets it refused: nothing pushed, no workflows token',
    async (_what, who, permission, body) => {
      const flow = executorFlow(w.llm, [
        (_r, card) => ack(card),
        writeWithWorkflow,
        () => toolCalls(['commit_and_push', { message: 'Add a lint job' }]),
      ]);
      await askOnGitHub(who, permission, body);
      await flow.done();
      expect(flow.results[2]?.join('\n')).toMatch(/^Error: refused, nothing committed or pushed/);
      expect(botBranches()).toBe('');
      expect(workflowTokens()).toEqual([]);
    },
  );
});
