import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoModel } from '../../../src/demo/demo-model.ts';
import { type LocalGitHub, startLocalGitHub } from '../../../src/demo/local-github.ts';
import { makeSampleRepo, SAMPLE_REPO } from '../../../src/demo/sample-repo.ts';

/**
 * The demo's loopback GitHub and scripted model (issue 32) refuse what the real services refuse:
 * no token, another repository, a second PR for a branch, a wrong model key.
 */
describe('npm run demo: its GitHub and model keep the real contracts', () => {
  const TOKEN = 'ghp_demo_test_token_0123456789';
  let dir: string;
  let gh: LocalGitHub;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sy-demo-servers-'));
    gh = await startLocalGitHub({
      repo: SAMPLE_REPO,
      bare: makeSampleRepo(dir),
      token: TOKEN,
      botLogin: 'bot',
    });
  });
  afterAll(async () => {
    await gh.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const rest = (method: string, path: string, body?: unknown, token: string | null = TOKEN) =>
    fetch(`${gh.url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `token ${token}` } : {}), 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
  // Async: the server answering git runs in this same process.
  const git = (...args: string[]) =>
    promisify(execFile)('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    });
  const basic = (token: string) =>
    `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;

  it('REST answers 401 Bad credentials without the token, 404 for another repository', async () => {
    expect(await rest('GET', `/repos/${SAMPLE_REPO}`, undefined, null)).toEqual({
      status: 401,
      body: { message: 'Bad credentials' },
    });
    expect(await rest('GET', `/repos/${SAMPLE_REPO}`, undefined, 'ghp_wrong')).toMatchObject({ status: 401 });
    expect(await rest('GET', '/repos/acme/other')).toMatchObject({
      status: 404,
      body: { message: 'Not Found' },
    });
    const repo = await rest('GET', `/repos/${SAMPLE_REPO}`);
    expect(repo).toMatchObject({
      status: 200,
      body: { full_name: SAMPLE_REPO, default_branch: 'main', clone_url: `${gh.url}/git/${SAMPLE_REPO}.git` },
    });
  });

  it('git over HTTP needs the token; with it a clone and a push land; a second PR for the branch is 422', async () => {
    const url = `${gh.url}/git/${SAMPLE_REPO}.git`;
    await expect(git('clone', '-q', url, 'anon')).rejects.toThrow(
      /Authentication failed|could not read Username|401/,
    );
    await git('-c', basic(TOKEN), 'clone', '-q', url, 'work');
    expect(readFileSync(join(dir, 'work', 'README.md'), 'utf8')).toContain('greting');
    const w = join(dir, 'work');
    execFileSync('git', ['-C', w, 'checkout', '-q', '-b', 'fix'], { stdio: 'ignore' });
    execFileSync(
      'git',
      ['-C', w, '-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-q', '--allow-empty', '-m', 'x'],
      {
        stdio: 'ignore',
      },
    );
    await git('-C', w, '-c', basic(TOKEN), 'push', '-q', 'origin', 'fix');
    expect(
      await rest('POST', `/repos/${SAMPLE_REPO}/pulls`, {
        title: 't',
        head: 'nope',
        base: 'main',
        draft: true,
      }),
    ).toMatchObject({
      status: 422,
    });
    const opened = await rest('POST', `/repos/${SAMPLE_REPO}/pulls`, {
      title: 't',
      head: 'fix',
      base: 'main',
      draft: true,
    });
    expect(opened).toMatchObject({
      status: 201,
      body: { number: 1, draft: true, html_url: `${gh.url}/${SAMPLE_REPO}/pull/1` },
    });
    expect(
      await rest('POST', `/repos/${SAMPLE_REPO}/pulls`, { title: 't', head: 'fix', base: 'main' }),
    ).toMatchObject({
      status: 422,
      body: { message: 'Validation Failed' },
    });
    const page = await fetch(`${gh.url}/${SAMPLE_REPO}/pull/1`).then((r) => r.text());
    expect(page).toContain('draft');
    // Issue 49: the list honours GitHub's filters — open_pr asks for its own branch's PR by `head`.
    const owner = SAMPLE_REPO.split('/')[0];
    const numbers = async (query: string) => {
      const r = await rest('GET', `/repos/${SAMPLE_REPO}/pulls?${query}`);
      return (r.body as unknown as { number: number }[]).map((p) => p.number);
    };
    expect(await numbers(`head=${owner}:fix&state=open`)).toEqual([1]);
    expect(await numbers(`head=${owner}:another-branch&state=open`)).toEqual([]);
    expect(await numbers(`head=someone-else:fix`)).toEqual([]);
    expect(await numbers('state=closed')).toEqual([]);
    expect(await numbers('state=all&base=main')).toEqual([1]);
    expect(await rest('GET', `/repos/${SAMPLE_REPO}/pulls?state=merged`)).toMatchObject({ status: 422 });
  });

  it('a git request whose backend cannot start answers 502 with the reason, and the server goes on', async () => {
    const info = `${gh.url}/git/${SAMPLE_REPO}.git/info/refs?service=git-upload-pack`;
    const auth = { authorization: `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}` };
    const path = process.env.PATH;
    process.env.PATH = dir; // no git here: the backend's start fails (ENOENT)
    try {
      const res = await fetch(info, { headers: auth });
      expect(res.status).toBe(502);
      expect(await res.text()).toMatch(/^git http-backend failed: .*ENOENT/);
    } finally {
      process.env.PATH = path;
    }
    expect((await fetch(info, { headers: auth })).status).toBe(200);
  });

  it('the scripted model answers 401 to a wrong key, and opens a ticket for each card of a main turn', async () => {
    const model = await startDemoModel({ apiKey: 'sk-right', repo: SAMPLE_REPO });
    try {
      const ask = (key: string) =>
        fetch(`${model.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'm',
            messages: [{ role: 'user', content: '<card id="c1">hi</card> <card id="c2">yo</card>' }],
            tools: [{ type: 'function', function: { name: 'orchestrator_route' } }],
          }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { choices?: unknown[] } }));
      expect((await ask('sk-wrong')).status).toBe(401);
      const ok = await ask('sk-right');
      expect(ok.status).toBe(200);
      expect(ok.body.choices?.[0]).toMatchObject({
        finish_reason: 'tool_calls',
        message: {
          tool_calls: [
            {
              function: {
                name: 'orchestrator_route',
                arguments: JSON.stringify({
                  decisions: [
                    { card: 'c1', action: 'open' },
                    { card: 'c2', action: 'open' },
                  ],
                }),
              },
            },
          ],
        },
      });
    } finally {
      await model.close();
    }
  });
});
