import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TriggerCard } from '../../../src/cards/card.ts';
import { screenshotProblem } from '../../../src/executor/delivery-checks.ts';
import { isLoopbackUrl } from '../../../src/executor/screenshot/screenshot-run.ts';
import { prNumberIn, yieldTargetIn } from '../../../src/executor/tools/yield-target.ts';
import { DEFAULT_UI_FILE_GLOBS, uiFileMatcher } from '../../../src/executor/ui-files.ts';
import { BOT_SECRETS, commandEnv } from '../../../src/executor/workspace/command-env.ts';
import { confinePath } from '../../../src/executor/workspace/confine-path.ts';
import { gitAuthConfig } from '../../../src/executor/workspace/host-git-env.ts';
import { namedRepos } from '../../../src/executor/workspace/repo-choice.ts';
import { runProcess } from '../../../src/executor/workspace/run-process.ts';
import { branchName } from '../../../src/executor/workspace/workspace.ts';

describe('workspace rules (issue 4 "Workspace")', () => {
  const root = mkdtempSync(join(tmpdir(), 'sy-confine-'));
  const checkout = join(root, 'checkout');
  mkdirSync(join(checkout, 'src'), { recursive: true });
  writeFileSync(join(root, 'secret.txt'), 'x');
  symlinkSync(root, join(checkout, 'up'));
  symlinkSync('src', join(checkout, 'inner'));
  symlinkSync('/nowhere/at/all', join(checkout, 'dangling'));

  it.each([
    ['../secret.txt', 'climbs out'],
    ['src/../../secret.txt', 'climbs out'],
    ['/etc/passwd', 'absolute'],
    ['.git/config', '.git'],
    ['up/secret.txt', 'outside the checkout'],
    ['up/new/file.txt', 'outside the checkout'],
    ['dangling', 'outside the checkout'],
  ])('workspace: %s is refused (%s)', async (given, why) => {
    const r = await confinePath(checkout, given);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.why).toContain(why);
  });

  it.each([['src/new.ts'], ['inner/a.ts'], ['.'], ['deep/new/dir/file.md']])(
    'workspace: %s stays inside',
    async (given) => {
      const r = await confinePath(checkout, given);
      expect(r.ok).toBe(true);
    },
  );

  it('workspace: a command environment is an allow-list without any of the bot’s secrets', () => {
    const source = Object.fromEntries([
      ...BOT_SECRETS.map((n) => [n, 'secret']),
      ['PATH', '/bin'],
      ['AWS_SECRET_ACCESS_KEY', 'x'],
    ]);
    const env = commandEnv('/tmp/home', source);
    for (const name of BOT_SECRETS) expect(env).not.toHaveProperty(name);
    expect(env).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
    expect(env).toMatchObject({ PATH: '/bin', HOME: '/tmp/home', GIT_TERMINAL_PROMPT: '0' });
  });

  it('workspace: the token goes only to the clone URL’s https host, never for file:// or ssh', () => {
    expect(gitAuthConfig('file:///tmp/x.git', 'tok')).toEqual([]);
    expect(gitAuthConfig('git@github.com:a/b.git', 'tok')).toEqual([]);
    const [[key, value] = ['', '']] = gitAuthConfig('https://github.com/a/b.git', 'tok');
    expect(key).toBe('http.https://github.com/.extraheader');
    expect(Buffer.from(value.split(' ').at(-1) ?? '', 'base64').toString()).toBe('x-access-token:tok');
  });

  it('workspace: branch names are sy/<ticket>-<slug>, cut at a word', () => {
    expect(branchName('T7', 'Fix the Login redirect loop on staging, please!')).toBe(
      'sy/T7-fix-the-login-redirect-loop-on',
    );
    expect(branchName('T8', '修复登录')).toBe('sy/T8');
  });

  it('workspace: output keeps head and tail under the cap, and a time-out kills the command', async () => {
    const env = { PATH: process.env.PATH ?? '' };
    const long = await runProcess(
      'bash',
      ['-c', 'echo HEAD; head -c 50000 /dev/zero | tr "\\0" y; echo; echo TAIL'],
      { cwd: root, env, timeoutMs: 10_000, capBytes: 2000 },
    );
    expect(long.output).toMatch(/^HEAD/);
    expect(long.output).toMatch(/TAIL\n$/);
    expect(long.output.length).toBeLessThan(2100);
    const slow = await runProcess('bash', ['-c', 'sleep 20'], { cwd: root, env, timeoutMs: 300 });
    expect(slow).toMatchObject({ timedOut: true, exitCode: null });
  });
});

describe('delivery rules (R-C6, R-C8)', () => {
  it('issue 15 / R-C6: the screenshot tool opens only a loopback page of the server it starts', () => {
    expect(isLoopbackUrl('http://127.0.0.1:5173/')).toBe(true);
    expect(isLoopbackUrl('http://localhost:8000/settings?tab=2')).toBe(true);
    expect(isLoopbackUrl('http://[::1]:3000/')).toBe(true);
    expect(isLoopbackUrl('http://10.0.0.5:3000/')).toBe(false);
    expect(isLoopbackUrl('http://169.254.169.254/latest/meta-data/')).toBe(false);
    expect(isLoopbackUrl('http://localhost.evil.example/')).toBe(false);
    expect(isLoopbackUrl('http://user:pw@127.0.0.1/')).toBe(false);
    expect(isLoopbackUrl('file:///etc/passwd')).toBe(false);
    expect(isLoopbackUrl('not a url')).toBe(false);
  });

  it('issue 15 / R-C6: a UI change is ready with a clean "before" at the base commit and a clean "after" at HEAD', () => {
    const shot = (when: 'before' | 'after', commit: string, dirty = false) =>
      ({ when, commit, dirty, kind: 'png', sha256: 'x', at: 0, id: 'i' }) as const;
    const ui = ['web/style.css'];
    expect(screenshotProblem([], ui, 'b', 'h')).toMatch(/no "before" screenshot taken at the base commit/);
    expect(screenshotProblem([shot('before', 'h')], ui, 'b', 'h')).toMatch(/no "before"/);
    expect(screenshotProblem([shot('before', 'b')], ui, 'b', 'h')).toMatch(
      /no "after" screenshot taken at HEAD/,
    );
    expect(screenshotProblem([shot('before', 'b'), shot('after', 'h', true)], ui, 'b', 'h')).toMatch(
      /no "after"/,
    );
    // A record from before issue 15 names a file, not a commit: it proves nothing.
    const legacy = { when: 'before', kind: 'png', sha256: 'x', at: 0, path: 'before.png' } as const;
    expect(screenshotProblem([legacy, shot('after', 'h')], ui, 'b', 'h')).toMatch(/no "before"/);
    expect(screenshotProblem([shot('before', 'b'), shot('after', 'h')], ui, 'b', 'h')).toBeUndefined();
  });

  it('issue 15: UI_FILE_GLOBS — a glob without / matches a name anywhere, one with / the path', () => {
    const custom = uiFileMatcher('*.elm, site/**, **/ui/*.ts');
    expect(custom('src/Main.elm')).toBe(true);
    expect(custom('site/index.md')).toBe(true);
    expect(custom('docs/site/index.md')).toBe(false);
    expect(custom('app/ui/button.ts')).toBe(true);
    expect(custom('ui/button.ts')).toBe(true);
    expect(custom('app/ui/deep/button.ts')).toBe(false);
    expect(custom('web/style.css')).toBe(false);
  });

  it.each([
    ['web/style.css', true],
    ['app/Button.tsx', true],
    ['src/App.vue', true],
    ['templates/mail.txt', true],
    ['index.html', true],
    ['src/login.ts', false],
    ['README.md', false],
  ])('R-C6: %s is a UI file: %s', (path, ui) => {
    expect(uiFileMatcher(DEFAULT_UI_FILE_GLOBS)(path)).toBe(ui);
  });

  it('R-C8: the person’s PR is named by #N, owner/name#N or URL, in the same repository only', () => {
    expect(prNumberIn('acme/web', '#3')).toBe(3);
    expect(prNumberIn('acme/web', 'acme/web#3')).toBe(3);
    expect(prNumberIn('acme/web', 'https://github.com/acme/web/pull/3')).toBe(3);
    expect(prNumberIn('acme/web', 'other/repo#3')).toBeUndefined();
    expect(prNumberIn('acme/web', 'their branch')).toBeUndefined();
  });

  it('R-C8: a person’s branch is named by its name or its tree URL, in the same repository only', () => {
    expect(yieldTargetIn('acme/web', '#3')).toEqual({ kind: 'pr', number: 3 });
    expect(yieldTargetIn('acme/web', 'ada/home')).toEqual({ kind: 'branch', name: 'ada/home' });
    expect(yieldTargetIn('acme/web', 'https://github.com/acme/web/tree/ada/home')).toEqual({
      kind: 'branch',
      name: 'ada/home',
    });
    for (const bad of [
      'https://github.com/other/repo/tree/ada/home',
      'their branch',
      '-x',
      'a..b',
      'a:b',
      '#x',
    ])
      expect(yieldTargetIn('acme/web', bad)).toBeUndefined();
  });
});

describe('which repository (issue 4)', () => {
  const card = (text: string, refs: TriggerCard['refs'] = []) => ({ text, refs }) as TriggerCard;
  it('a request names its repository by owner/name or URL', () => {
    expect(namedRepos(card('please fix acme/web login'))).toEqual(['acme/web']);
    expect(
      namedRepos(
        card('see https://github.com/acme/api/issues/3', [{ type: 'issue', repo: 'acme/api', number: 3 }]),
      ),
    ).toEqual(['acme/api']);
    expect(namedRepos(card('fix src/login.ts please'))).toEqual(['src/login.ts']);
    expect(namedRepos(card('the login page is broken'))).toEqual([]);
  });
});
