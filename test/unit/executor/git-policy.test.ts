import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { scopedPermissions } from '../../../src/channels/github/token-scope.ts';
import { cloneUrlProblem, gitProtocols } from '../../../src/executor/workspace/git-policy.ts';
import { hostGitEnv } from '../../../src/executor/workspace/host-git-env.ts';

const run = promisify(execFile);

describe('network git policy (issue 13, R-H4)', () => {
  const home = mkdtempSync(join(tmpdir(), 'sy-policy-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('R-H4: against a real GitHub only https is allowed; a loopback fake (tests) also gets http to loopback and file', () => {
    const real = gitProtocols({ GITHUB_API_URL: 'https://api.github.com' });
    expect(real).toEqual(['https']);
    expect(gitProtocols({ GITHUB_API_URL: 'https://ghe.example.com/api/v3' })).toEqual(['https']);
    expect(gitProtocols({ GITHUB_API_URL: 'http://127.0.0.1:4000' })).toEqual(['https', 'http', 'file']);
    expect(cloneUrlProblem('https://github.com/a/b.git', real)).toBeUndefined();
    expect(cloneUrlProblem('file:///tmp/a.git', real)).toMatch(/allows only https/);
    expect(cloneUrlProblem('http://github.com/a/b.git', real)).toMatch(/allows only https/);
    expect(cloneUrlProblem('ext::sh -c x', real)).toBeDefined();
    expect(cloneUrlProblem('git@github.com:a/b.git', real)).toMatch(/not a URL/);
    expect(cloneUrlProblem('https://u:p@github.com/a/b.git', real)).toMatch(/credentials/);
    const test = gitProtocols({ GITHUB_API_URL: 'http://127.0.0.1:4000' });
    expect(cloneUrlProblem('http://10.0.0.5/a.git', test)).toMatch(/plain http to another machine/);
  });

  it('R-H4: git run with the host environment refuses ext:: and file transports outside the allow-list', async () => {
    const env = hostGitEnv({ home, protocols: ['https'] });
    expect(env).toMatchObject({
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ALLOW_PROTOCOL: 'https',
    });
    const marker = join(home, 'ext-ran');
    await expect(
      run('git', ['ls-remote', `ext::sh -c touch% ${marker}`], { cwd: home, env }),
    ).rejects.toThrow(/transport 'ext' not allowed/);
    await expect(run('git', ['ls-remote', `file://${home}`], { cwd: home, env })).rejects.toThrow(
      /transport 'file' not allowed/,
    );
  });

  it('R-H4: a token asks for what its use needs, cut to what the installation was granted', () => {
    expect(scopedPermissions('push')).toEqual({ metadata: 'read', contents: 'write' });
    expect(scopedPermissions('fetch', { contents: 'write', metadata: 'read', issues: 'write' })).toEqual({
      metadata: 'read',
      contents: 'read',
    });
    // An installation without checks: the API token does not ask for it (GitHub would answer 422).
    expect(
      scopedPermissions('api', {
        metadata: 'read',
        contents: 'read',
        issues: 'write',
        pull_requests: 'read',
      }),
    ).toEqual({ metadata: 'read', contents: 'read', issues: 'write', pull_requests: 'read' });
  });
});
