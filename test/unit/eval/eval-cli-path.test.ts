import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { childEnv, evalCli } from '../../../src/eval/start-ab-run.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * Issue 29: the panel's Evaluate runs the eval CLI beside the web process — compiled JavaScript
 * with node where the product runs compiled (the Docker image has no tsx), TypeScript from a
 * checkout: with node itself where it strips types, else through tsx.
 */
it('issue 29: a compiled build runs its own cli.js with node; a checkout runs cli.ts (through tsx where node cannot strip types)', () => {
  // A folder with a space and a non-ASCII letter: the file URL escapes both.
  const built = mkdtempSync(join(tmpdir(), 'eval cli é-'));
  dirs.push(built);
  writeFileSync(join(built, 'cli.js'), '');
  expect(evalCli(pathToFileURL(join(built, 'start-ab-run.js')).href)).toEqual([join(built, 'cli.js')]);

  const source = fileURLToPath(new URL('../../../src/eval/start-ab-run.ts', import.meta.url));
  expect(evalCli(pathToFileURL(source).href, true)).toEqual([join(dirname(source), 'cli.ts')]);
  expect(evalCli(pathToFileURL(source).href, false)).toEqual([
    '--import',
    expect.stringMatching(/node_modules\/tsx\/dist\/loader\.mjs$/),
    join(dirname(source), 'cli.ts'),
  ]);

  // A compiled file whose cli.js is missing, far from any node_modules: nothing can run it.
  expect(evalCli(pathToFileURL(join('/', 'nowhere', 'start-ab-run.js')).href)).toBeNull();
});

it("issue 29: the run the panel starts gets the eval model, the product's Redis, and none of the bot's own secrets", () => {
  const config = loadConfig({
    ADMIN_TOKEN: 'a'.repeat(40),
    LLM_API_KEY: 'sk-production',
    REDIS_URL: 'redis://10.0.0.5:6379',
    KEY_PREFIX: 'prod',
    EVAL_LLM_API_KEY: 'sk-eval',
  });
  const env = childEnv(config, {
    PATH: '/usr/bin',
    HOME: '/home/bot',
    LLM_API_KEY: 'sk-production',
    GITHUB_PRIVATE_KEY: '-----BEGIN',
    FEISHU_APP_SECRET: 'feishu',
    ADMIN_TOKEN: 'a'.repeat(40),
    REDIS_URL: 'redis://stale',
  });
  expect(env).toMatchObject({
    PATH: '/usr/bin',
    HOME: '/home/bot',
    REDIS_URL: 'redis://10.0.0.5:6379',
    KEY_PREFIX: 'prod',
    EVAL_LLM_API_KEY: 'sk-eval',
  });
  for (const secret of ['LLM_API_KEY', 'GITHUB_PRIVATE_KEY', 'FEISHU_APP_SECRET', 'ADMIN_TOKEN'])
    expect(env, secret).not.toHaveProperty(secret);
});
