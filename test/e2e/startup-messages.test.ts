import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../kit/app.ts';
import { freePort } from '../kit/local-net.ts';
import { freshPrefix, redisUrl } from '../kit/redis.ts';
import { NODE_TS, nodeCacheEnv } from '../kit/source-node.ts';

/**
 * Issue 32: start-up that says what to do. Each case runs the real process (`src/main.ts`, what
 * `npm start` runs) with nothing but the given variables and reads what it prints.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'startup-'));
const emptyEnv = join(dir, 'empty.env');
await writeFile(emptyEnv, '');
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}
const running: Run[] = [];

const node = [process.execPath, ...NODE_TS];

function start(env: Record<string, string>, command: string[] = [...node, 'src/main.ts']): Run {
  const [file, ...args] = command;
  const child = spawn(file ?? process.execPath, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...nodeCacheEnv(),
      ENV_FILE: emptyEnv,
      KEY_PREFIX: freshPrefix(),
      ROLE: 'web',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const run = { child, out: () => out, err: () => err, exited };
  running.push(run);
  return run;
}

afterEach(async () => {
  for (const r of running.splice(0)) {
    if (r.child.exitCode !== null || r.child.pid === undefined) continue;
    try {
      process.kill(-r.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await r.exited;
  }
});

const logLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map(
      (l) => JSON.parse(l) as { msg: string; level: number; time: number; access?: Record<string, unknown> },
    );

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, port };
}

describe('issue 32: start-up that says what to do (the real process)', () => {
  it('a port in use: one line naming PORT, exit 1, no stack trace; JSON logs when stdout is no terminal; model and panel off said as what to set', async () => {
    const busy = await listening();
    try {
      const run = start({ REDIS_URL: redisUrl(), PORT: String(busy.port) });
      expect(await run.exited).toBe(1);
      expect(run.err().trim()).toBe(
        `port ${busy.port} on 127.0.0.1 is in use: stop what listens there, or set PORT to a free port`,
      );
      // Every stdout line is JSON (a pipe, not a terminal).
      const lines = run.out().trim().split('\n');
      expect(lines.every((l) => l.startsWith('{"level"'))).toBe(true);
      const warnings = logLines(run.out())
        .filter((l) => l.level === 40)
        .map((l) => l.msg);
      expect(warnings).toContainEqual(expect.stringMatching(/^model off: set LLM_API_KEY /));
      expect(warnings).toContainEqual(expect.stringMatching(/^panel off: set ADMIN_TOKEN /));
    } finally {
      busy.server.close();
    }
  }, 120_000);

  it('logs are readable (pino-pretty) when stdout is a terminal', async () => {
    const busy = await listening();
    try {
      // script(1) gives the process a terminal; its output is what the terminal shows.
      const cmd = `${node.join(' ')} src/main.ts`;
      const run = start({ REDIS_URL: redisUrl(), PORT: String(busy.port), TERM: 'dumb' }, [
        'script',
        '-qefc',
        cmd,
        '/dev/null',
      ]);
      await run.exited;
      const shown = run.out();
      expect(shown).toMatch(/WARN.*panel off: set ADMIN_TOKEN/);
      expect(shown).not.toContain('{"level"');
    } finally {
      busy.server.close();
    }
  }, 120_000);

  it('Redis unreachable: one line naming REDIS_URL and how to start Redis, repeated at most every 10 s', async () => {
    const nothing = await freePort();
    const run = start({ REDIS_URL: `redis://127.0.0.1:${nothing}`, PORT: '0' });
    const said = () => logLines(run.out()).filter((l) => /Redis does not answer/.test(l.msg));
    await waitFor(() => said().length >= 2, 'the line said twice', 90_000);
    const [first, second] = said();
    expect(first?.msg).toContain(`REDIS_URL=redis://127.0.0.1:${nothing}`);
    expect(first?.msg).toContain('start Redis (redis-server, or docker compose up -d redis)');
    expect((second?.time ?? 0) - (first?.time ?? 0)).toBeGreaterThanOrEqual(10_000);
    // Nothing else about the lost connection: no per-queue or per-attempt lines.
    expect(logLines(run.out()).filter((l) => /connection error/.test(l.msg))).toEqual([]);
  }, 150_000);

  it('a refused configuration answers before the product loads: nothing past the configuration is imported', async () => {
    // A resolve hook in the process lists every module it loads, printed at exit.
    const hook = join(dir, 'list-modules.mjs');
    await writeFile(
      hook,
      [
        "import { registerHooks } from 'node:module';",
        'const urls = [];',
        'registerHooks({ resolve(s, c, next) { const r = next(s, c); urls.push(r.url); return r; } });',
        "process.on('exit', () => process.stderr.write('modules ' + JSON.stringify(urls) + '\\n'));",
      ].join('\n'),
    );
    const run = start({ REDIS_URL: redisUrl(), PORT: 'abc' }, [...node, '--import', hook, 'src/main.ts']);
    expect(await run.exited).toBe(1);
    const [said, listed] = run.err().trim().split('\n');
    expect(said).toBe('Bad configuration: PORT must be a number');
    const urls = JSON.parse(listed?.replace(/^modules /, '') ?? '[]') as string[];
    // The hook saw the configuration load (so an empty list cannot pass), and nothing behind it.
    expect(urls.some((u) => u.endsWith('/src/config.ts'))).toBe(true);
    expect(
      urls.filter((u) => /\/src\/start-bot\.ts$|\/node_modules\/(bullmq|@larksuiteoapi|hono)\//.test(u)),
    ).toEqual([]);
  }, 60_000);

  it('each refused configuration exits 1 with one line saying what is wrong', async () => {
    const dup = join(dir, 'dup.env');
    await writeFile(dup, 'PORT=4000\nLOG_LEVEL=info\nPORT=4001\n');
    const cases: [Record<string, string>, string][] = [
      [
        { ENV_FILE: join(dir, 'nope.env') },
        `Bad configuration: ENV_FILE names ${join(dir, 'nope.env')}, which does not exist`,
      ],
      [{ ENV_FILE: dup }, `Bad configuration: ${dup}: PORT is set on line 1 and again on line 3; keep one`],
      [
        { FEISHU_APP_ID: 'cli_myapp', FEISHU_APP_SECRET: 's' },
        'Bad configuration: FEISHU_APP_ID: not a Feishu app id: cli_ and 16 hex digits, as the console shows it (cli_a1b2c3d4e5f60718)',
      ],
      [{ PORT: 'abc' }, 'Bad configuration: PORT must be a number'],
    ];
    const runs = cases.map(([env]) => start({ REDIS_URL: redisUrl(), ...env }));
    for (const [i, run] of runs.entries()) {
      expect(await run.exited).toBe(1);
      expect(run.err().trim()).toBe(cases[i]?.[1]);
      expect(run.out()).toBe('');
    }
  }, 120_000);

  it('with a model key and an admin token nothing is off; one access-log line per request with method, path, status, ms and delivery id', async () => {
    const port = await freePort();
    const run = start({
      REDIS_URL: redisUrl(),
      PORT: String(port),
      LLM_API_KEY: 'sk-test',
      ADMIN_TOKEN: 'a'.repeat(40),
    });
    await waitFor(
      () =>
        fetch(`http://127.0.0.1:${port}/healthz`)
          .then((r) => r.ok)
          .catch(() => false),
      '/healthz',
      90_000,
    );
    const res = await fetch(`http://127.0.0.1:${port}/webhooks/github?secret=x`, {
      method: 'POST',
      headers: { 'x-github-delivery': 'd-123', 'x-github-event': 'ping', 'content-type': 'application/json' },
      body: '{}',
    });
    await waitFor(
      () => logLines(run.out()).some((l) => l.access?.path === '/webhooks/github'),
      'the access line',
      10_000,
    );
    const line = logLines(run.out()).find((l) => l.access?.path === '/webhooks/github');
    expect(line?.access).toEqual({
      method: 'POST',
      path: '/webhooks/github',
      status: res.status,
      ms: expect.any(Number),
      delivery: 'd-123',
    });
    expect(line?.msg).toMatch(new RegExp(`^POST /webhooks/github ${res.status} \\d+ ms delivery d-123$`));
    expect(logLines(run.out()).filter((l) => l.access?.path === '/healthz').length).toBeGreaterThanOrEqual(1);
    expect(run.out()).not.toMatch(/model off:|panel off:/);
  }, 120_000);

  it('npm run doctor with no model key: a problem, exit 1', async () => {
    const run = start({ REDIS_URL: redisUrl(), SANDBOX: 'none', DOCTOR_LANG: 'en' }, [
      ...node,
      'scripts/doctor.ts',
    ]);
    expect(await run.exited).toBe(1);
    expect(run.out()).toMatch(/^PROBLEM +model: off \(no LLM_API_KEY\)$/m);
    expect(run.out()).toMatch(/fix: set LLM_API_KEY/);
  }, 120_000);
});
