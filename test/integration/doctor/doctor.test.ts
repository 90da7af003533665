import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorCli } from '../../../src/doctor/doctor-cli.ts';
import { setChatRepo } from '../../../src/router/chat-repos.ts';
import { createKeys } from '../../../src/store/keys.ts';
import { waitFor } from '../../kit/app.ts';
import { startFakeAnthropic } from '../../kit/fake-anthropic.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import {
  type FakeLlm,
  failure,
  type RecordedRequest,
  startFakeLlm,
  text,
  toolCalls,
} from '../../kit/fake-llm.ts';
import { freePort } from '../../kit/local-net.ts';
import { type LocalRedis, startRedisServer } from '../../kit/redis-server.ts';
import { NODE_TS, nodeCacheEnv } from '../../kit/source-node.ts';
import { startBotProcess } from '../../kit/worker-process.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' });

/**
 * `npm run doctor -- <args>` as the script runs it (`doctorCli`), in this process on an environment
 * of its own: its exit status and what it printed.
 */
async function doctor(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; out: string }> {
  let out = '';
  const write = (text: string) => {
    out += text;
  };
  const code = await doctorCli(args, { ...baseEnv(), ...env }, { stdout: write, stderr: write });
  return { code, out };
}

/** The real `npm run doctor` script as its own process: its exit code and what it printed. */
function doctorProcess(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...NODE_TS, 'scripts/doctor.ts', ...args],
      {
        cwd: root,
        env: { ...baseEnv(), ...nodeCacheEnv(), ...env },
        timeout: 60_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** A model that calls the offered tool, then answers, and refuses any other key like the real API. */
function pingModel(req: RecordedRequest) {
  if (!['Bearer test-key', 'test-key'].includes(req.authorization ?? '')) return failure(401);
  return req.messages.at(-1)?.role === 'tool' ? text('done') : toolCalls(['doctor_ping', { word: 'ping' }]);
}

describe('npm run doctor (issue 12)', () => {
  let good: LocalRedis;
  let lru: LocalRedis;
  let llm: FakeLlm;
  let feishu: FakeFeishu;
  let gh: FakeGitHub;
  let work: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    [good, lru, llm, feishu, gh] = await Promise.all([
      // Issue 45 item 4: a Redis that answers without a password is a problem of its own.
      startRedisServer(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction'], 'doctor-redis-password'),
      startRedisServer(['--appendonly', 'no', '--save', '', '--maxmemory-policy', 'allkeys-lru']),
      startFakeLlm({ handler: pingModel }),
      startFakeFeishu(),
      startFakeGitHub({ token: 'ghp_doctor', tokenScopes: 'repo, read:org' }),
    ]);
    work = mkdtempSync(join(tmpdir(), 'sy-doctor-'));
    env = {
      REDIS_URL: good.url,
      LLM_BASE_URL: llm.baseURL,
      LLM_API_KEY: 'test-key',
      FEISHU_APP_ID: feishu.appId,
      FEISHU_APP_SECRET: feishu.appSecret,
      FEISHU_ENCRYPT_KEY: 'doctor-encrypt-key',
      FEISHU_DOMAIN: feishu.url,
      GITHUB_TOKEN: 'ghp_doctor',
      GITHUB_WEBHOOK_SECRET: 'secret',
      GITHUB_API_URL: gh.url,
      WORKSPACE_DIR: join(work, 'workspaces'),
      // Issue 31: a Feishu chat works only in its bound repositories; a deployment binds one.
      CHAT_REPOS: 'oc_team=acme/web',
    };
  });
  afterAll(async () => {
    await Promise.all([good?.stop(), lru?.stop(), llm?.close(), feishu?.close(), gh?.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  it('everything configured and answering: every check ok, exit 0', async () => {
    const r = await doctorProcess([], env);
    expect(r.out).toMatch(/^ok +model \(main\): /m);
    for (const check of ['model \\(executor\\)', 'redis', 'feishu', 'github', 'workspace', 'sandbox'])
      expect(r.out).toMatch(new RegExp(`^ok +${check}: `, 'm'));
    // Issue 16: no PUBLIC_URL, so events come over the long connection, whose endpoint answered.
    expect(r.out).toMatch(/^ok +feishu: .*events over the long connection/m);
    expect(r.out).toMatch(/^ok +feishu: chats with a bound repository: 1$/m);
    expect(r.out).toContain('no problems');
    expect(r.code).toBe(0);
    // The round trip sent the tool result back: the second request carried the call and its answer.
    const second = llm.requests.find((q) => q.messages.some((m) => m.role === 'tool'));
    expect(second?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
  }, 60_000);

  it('channels that are off are reported as off, not as problems', async () => {
    const { FEISHU_APP_ID: _a, FEISHU_APP_SECRET: _b, GITHUB_TOKEN: _c, ...rest } = env;
    const r = await doctor(rest);
    expect(r.out).toMatch(/^off +feishu: off/m);
    expect(r.out).toMatch(/^off +github: off/m);
    expect(r.code).toBe(0);
  }, 60_000);

  it('a bad key, an evicting Redis without persistence, a wrong Feishu secret, a token without repo and SANDBOX=none: exit 1, each named with its fix', async () => {
    const bad = await startFakeGitHub({ token: 'ghp_doctor', tokenScopes: 'read:org' });
    try {
      const r = await doctor({
        ...env,
        LLM_API_KEY: 'wrong-key',
        REDIS_URL: lru.url,
        FEISHU_APP_SECRET: 'not-the-secret',
        GITHUB_API_URL: bad.url,
        SANDBOX: 'none',
      });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^PROBLEM +model \(main\): model endpoint answered 401/m);
      expect(r.out).toMatch(/fix: set LLM_API_KEY to a valid key/);
      expect(r.out).toMatch(/^PROBLEM +redis: maxmemory-policy is allkeys-lru/m);
      expect(r.out).toMatch(/fix: set maxmemory-policy noeviction/);
      expect(r.out).toMatch(/^PROBLEM +redis: persistence is off/m);
      expect(r.out).toMatch(
        new RegExp(`^PROBLEM +redis: 127\\.0\\.0\\.1:${lru.port} answers without a password`, 'm'),
      );
      expect(r.out).toMatch(/fix: give Redis a password \(requirepass in redis\.conf/);
      expect(r.out).toMatch(
        /^off +redis: memory \d+ MB, no limit known \(maxmemory 0\): headroom not watched/m,
      );
      expect(r.out).toMatch(/^PROBLEM +feishu: tenant access token refused \(code 10014/m);
      expect(r.out).toMatch(
        /^PROBLEM +github: token of switchyard-bot has scopes \[read:org\], without repo/m,
      );
    } finally {
      await bad.close();
    }
  }, 60_000);

  it('issue 49: in the demo (DEMO=1) a Redis without persistence is expected, not a problem; elsewhere it is one', async () => {
    const demo = await doctor({ ...env, REDIS_URL: lru.url, DEMO: '1' });
    expect(demo.out).toMatch(/^ok +redis: .*persistence off: expected in the demo/m);
    expect(demo.out).not.toMatch(/persistence is off/);
    const zh = await doctor({ ...env, REDIS_URL: lru.url, DEMO: '1', DOCTOR_LANG: 'zh-CN' });
    expect(zh.out).toMatch(/^正常 +redis：.*持久化已关闭：演示模式下属正常/m);
    const real = await doctor({ ...env, REDIS_URL: lru.url });
    expect(real.out).toMatch(/^PROBLEM +redis: persistence is off/m);
  }, 60_000);

  it('issue 16: under a Chinese locale every finding, fix and the total are Chinese; --lang and DOCTOR_LANG choose too', async () => {
    const bad = await startFakeGitHub({ token: 'ghp_doctor', tokenScopes: 'read:org' });
    try {
      const broken = {
        ...env,
        LLM_API_KEY: 'wrong-key',
        REDIS_URL: lru.url,
        FEISHU_APP_SECRET: 'not-the-secret',
        GITHUB_API_URL: bad.url,
        SANDBOX: 'none',
      };
      const zh = await doctor({ ...broken, LANG: 'zh_CN.UTF-8' });
      expect(zh.code).toBe(1);
      expect(zh.out).toMatch(/^问题 +redis：maxmemory-policy 为 allkeys-lru：Redis 可能会淘汰工单/m);
      expect(zh.out).toMatch(/^ +修复：设置 maxmemory-policy noeviction/m);
      expect(zh.out).toMatch(/^问题 +redis：持久化已关闭/m);
      expect(zh.out).toMatch(/^问题 +redis：127\.0\.0\.1:\d+ 不要密码就应答/m);
      expect(zh.out).toMatch(/^问题 +model \(main\)：模型请求失败：model endpoint answered 401/m);
      expect(zh.out).toMatch(/^问题 +feishu：获取 tenant access token 被拒绝（错误码 10014/m);
      expect(zh.out).toMatch(/^问题 +github：switchyard-bot 的令牌的权限范围为 \[read:org\]，缺少 repo/m);
      expect(zh.out).toMatch(/^问题 +sandbox：SANDBOX=none：仓库代码在没有隔离的情况下运行/m);
      expect(zh.out).toMatch(/^正常 +workspace：.* 可写$/m);
      expect(zh.out).toMatch(/^共 \d+ 个问题：修复后请再次运行 npm run doctor$/m);
      // No English sentence left: every printed line has Chinese words in it.
      const lines = zh.out.split('\n').filter((l) => l.trim());
      expect(lines.filter((l) => !/[\u4e00-\u9fff]/.test(l))).toEqual([]);
      // The flag wins over the locale, DOCTOR_LANG over the locale; an unknown language is refused.
      const flagged = await doctor({ ...broken, LANG: 'zh_CN.UTF-8' }, ['--lang', 'en']);
      expect(flagged.out).toMatch(/^PROBLEM +redis: persistence is off/m);
      const named = await doctor({ ...broken, DOCTOR_LANG: 'zh-CN', LANG: 'en_US.UTF-8' });
      expect(named.out).toMatch(/^问题 +redis：持久化已关闭/m);
      const unknown = await doctorProcess(['--lang=fr'], broken);
      expect(unknown.code).toBe(2);
      expect(unknown.out).toContain('unknown language "fr": use en or zh-CN');
    } finally {
      await bad.close();
    }
  }, 90_000);

  it('issue 31: a Feishu chat with no bound repository is a problem naming it and how to bind one; a binding made in the chat or the panel counts', async () => {
    const prefix = `doctor-bind-${process.pid}-${Date.now().toString(36)}`;
    const chats = {
      ...env,
      KEY_PREFIX: prefix,
      ALLOWED_CHATS: 'feishu:oc_team,feishu:oc_ops,feishu:oc_lonely',
    };
    const redis = new Redis(good.url);
    try {
      await setChatRepo({ redis, keys: createKeys(prefix) }, 'oc_ops', 'acme/ops');
      const r = await doctor(chats);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^PROBLEM +feishu: chats in ALLOWED_CHATS with no bound repository: oc_lonely;/m);
      expect(r.out).toMatch(
        /fix: bind each chat its repositories: CHAT_REPOS=chat_id=owner\/name .*SETTINGS_ADMINS/,
      );
      const none = await doctor({ ...env, KEY_PREFIX: prefix, CHAT_REPOS: '' });
      expect(none.out).toMatch(/^ok +feishu: chats with a bound repository: 1$/m);
      expect(none.out).not.toMatch(/no Feishu chat has a bound repository/);
      await setChatRepo({ redis, keys: createKeys(prefix) }, 'oc_ops', undefined);
      const empty = await doctor({ ...env, KEY_PREFIX: prefix, CHAT_REPOS: '' });
      expect(empty.code).toBe(1);
      expect(empty.out).toMatch(/^PROBLEM +feishu: no Feishu chat has a bound repository/m);
    } finally {
      await redis.del(createKeys(prefix).chatRepos());
      redis.disconnect();
    }
  }, 90_000);

  it('GitHub: a fine-grained token needs push on each CHAT_REPOS repository; an App needs its permissions and events', async () => {
    const fine = await startFakeGitHub({ token: 'ghp_doctor', tokenScopes: null });
    fine.setPermission('acme/web', fine.botLogin, 'read');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const app = await startFakeGitHub({
      appPermissions: {
        contents: 'read',
        pull_requests: 'write',
        issues: 'write',
        metadata: 'read',
        checks: 'read',
      },
      appEvents: ['issue_comment', 'pull_request'],
    });
    try {
      const token = await doctor({
        ...env,
        GITHUB_API_URL: fine.url,
        CHAT_REPOS: 'room=acme/web,dm=acme/api',
      });
      expect(token.code).toBe(1);
      expect(token.out).toMatch(/^PROBLEM +github: token of switchyard-bot cannot push to acme\/web/m);
      expect(token.out).not.toMatch(/cannot push to acme\/api/);
      const { GITHUB_TOKEN: _t, ...noToken } = env;
      const r = await doctor({
        ...noToken,
        GITHUB_API_URL: app.url,
        GITHUB_APP_ID: '42',
        GITHUB_PRIVATE_KEY: pem,
      });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^PROBLEM +github: App switchyard lacks permissions contents: write/m);
      expect(r.out).toMatch(
        /^PROBLEM +github: App switchyard does not subscribe to issues, pull_request_review, pull_request_review_comment, check_run, check_suite/m,
      );
    } finally {
      await Promise.all([fine.close(), app.close()]);
    }
  }, 60_000);

  it('a retired model name (DeepSeek 400 "Model Not Exist"): exit 1, the fix names LLM_MODEL', async () => {
    const r = await doctor({ ...env, LLM_MODEL: 'deepseek-chat' });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^PROBLEM +model \(main\): model endpoint answered 400.*Model Not Exist/m);
    expect(r.out).toMatch(/fix: "deepseek-chat" is not served at .* set LLM_MODEL/);
  }, 60_000);

  it('issue 48: OpenAI GPT-4o under the 32,768-token default cap (its limit is 16,384): the fix says to lower LLM_MAX_TOKENS', async () => {
    const openai = await startFakeLlm({ handler: pingModel, dialect: 'openai' });
    try {
      const base = { ...env, LLM_PROVIDER: 'openai', LLM_BASE_URL: openai.baseURL, LLM_MODEL: 'gpt-4o' };
      const over = await doctor(base);
      expect(over.code).toBe(1);
      expect(over.out).toMatch(
        /^PROBLEM +model \(main\): model endpoint answered 400.*max_tokens is too large/m,
      );
      expect(over.out).toMatch(/fix: gpt-4o takes fewer output tokens than LLM_MAX_TOKENS \(now 32768\)/);
      const fits = await doctor({ ...base, LLM_MAX_TOKENS: '16384' });
      expect(fits.out).toMatch(/^ok +model \(executor\): gpt-4o: tool-call round trip/m);
    } finally {
      await openai.close();
    }
  }, 60_000);

  it('LLM_PROVIDER=anthropic: the round trip passes on a served model; a retired one (404) names LLM_MODEL', async () => {
    const fake = await startFakeAnthropic({ apiKey: 'test-key', handler: pingModel });
    try {
      const base = { ...env, LLM_PROVIDER: 'anthropic', LLM_BASE_URL: fake.baseURL };
      const served = await doctor({ ...base, LLM_MODEL: 'claude-haiku-4-5' });
      expect(served.out).toMatch(/^ok +model \(executor\): claude-haiku-4-5: tool-call round trip/m);
      expect(fake.refusals).toEqual([]);
      const retired = await doctor({ ...base, LLM_MODEL: 'claude-2.1' });
      expect(retired.code).toBe(1);
      expect(retired.out).toMatch(/^PROBLEM +model \(main\): model endpoint answered 404/m);
      expect(retired.out).toMatch(/fix: "claude-2\.1" is not served at .* set LLM_MODEL/);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('start-up logs one doctor line in the background, after the server listens, naming problems and fixes', async () => {
    const bot = startBotProcess({
      ...env,
      REDIS_URL: lru.url,
      ROLE: 'web',
      PORT: String(await freePort()),
      LOG_LEVEL: 'info',
      STARTUP_DOCTOR: 'full',
    });
    try {
      const out = await waitFor(
        () => (/"msg":"doctor: [^\n]*/.test(bot.output()) ? bot.output() : ''),
        'the doctor line',
        30_000,
      );
      const line = /"msg":"(doctor: [^"\n]*)/.exec(out)?.[1] ?? '';
      expect(line).toMatch(/^doctor: \d+ problem\(s\): .*redis: maxmemory-policy is allkeys-lru/);
      expect(line).toContain('fix: set maxmemory-policy noeviction');
      // Issue 31: this Redis has no maxmemory (and no REDIS_MEMORY_LIMIT_MB): its headroom is not watched.
      expect(line).toMatch(
        /ok: model \(main\), model \(executor\), feishu, github, workspace, sandbox \| off: redis$/,
      );
      expect(out.indexOf('listening on')).toBeGreaterThan(-1);
      expect(out.indexOf('listening on')).toBeLessThan(out.indexOf('"msg":"doctor:'));
    } finally {
      await bot.stop();
    }
  }, 60_000);
  it('issue 16: at start-up, GET /app is compared with what the bot needs and a missing event is named', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const app = await startFakeGitHub({
      appSlug: 'yard-app',
      appEvents: [
        'issue_comment',
        'pull_request_review_comment',
        'pull_request_review',
        'pull_request',
        'issues',
        'check_run',
      ],
    });
    app.registerAppKey('77', pem);
    const { GITHUB_TOKEN: _t, ...noToken } = env;
    const bot = startBotProcess({
      ...noToken,
      GITHUB_API_URL: app.url,
      GITHUB_APP_ID: '77',
      GITHUB_PRIVATE_KEY: pem,
      ROLE: 'web',
      PORT: String(await freePort()),
      LOG_LEVEL: 'info',
      STARTUP_DOCTOR: 'quick',
    });
    try {
      const out = await waitFor(
        () => (/"msg":"doctor: [^\n]*/.test(bot.output()) ? bot.output() : ''),
        'the doctor line',
        30_000,
      );
      const line = /"msg":"(doctor: [^"\n]*)/.exec(out)?.[1] ?? '';
      expect(line).toContain('github: App yard-app does not subscribe to check_suite');
      expect(line).toContain('subscribe the App to check_suite');
      expect(line).not.toMatch(/lacks permissions/);
      // The check signed its JWT with the App's key: the fake verified it.
      expect(app.callsTo('GET', '/app').map((c) => c.status)).toContain(200);
    } finally {
      await bot.stop();
      await app.close();
    }
  }, 60_000);
});
