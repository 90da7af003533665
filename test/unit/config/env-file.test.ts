import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { parseEnvFile, withEnvFile } from '../../../src/env-file.ts';

const dir = await mkdtemp(join(tmpdir(), 'env-file-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(text: string): Promise<string> {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.env`);
  await writeFile(path, text);
  return path;
}

const errorOf = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('no error thrown');
};

describe('.env (issue 16)', () => {
  it('adds the file under the real environment: a real variable wins, a missing file adds nothing', async () => {
    const path = await file('PORT=4111\nLOG_LEVEL=debug\n# a comment\n\nexport KEY_PREFIX=fromfile\n');
    const env = withEnvFile({ PORT: '4222', HOME: '/h' }, path);
    expect(env).toMatchObject({ PORT: '4222', LOG_LEVEL: 'debug', KEY_PREFIX: 'fromfile', HOME: '/h' });
    const config = loadConfig(env);
    expect(config.PORT).toBe(4222);
    expect(config.LOG_LEVEL).toBe('debug');

    const none = { PORT: '1' };
    expect(withEnvFile(none, join(dir, 'missing.env'))).toEqual(none);
  });

  it('.env.example, copied as the README says, parses and passes loadConfig', () => {
    const example = withEnvFile({}, fileURLToPath(new URL('../../../.env.example', import.meta.url)));
    expect(example.PORT).toBe('3000');
    expect(() => loadConfig(example)).not.toThrow();
  });

  it('ENV_FILE names another file', async () => {
    const path = await file('LOG_LEVEL=warn\n');
    expect(withEnvFile({ ENV_FILE: path }).LOG_LEVEL).toBe('warn');
  });

  it('an unset real variable does not hide the file', async () => {
    const path = await file('PORT=4111\n');
    expect(withEnvFile({ PORT: undefined }, path).PORT).toBe('4111');
  });

  it('reads quoted, multi-line and `=`-holding values as Node does', () => {
    const parsed = parseEnvFile('A="x y"\nKEY="-----BEGIN\nabc\n-----END"\nURL=redis://:p=q@h:6379\n');
    expect(parsed).toEqual({ A: 'x y', KEY: '-----BEGIN\nabc\n-----END', URL: 'redis://:p=q@h:6379' });
  });

  it('a line that is not NAME=value stops start-up naming its line, never its text', () => {
    const err = errorOf(() => parseEnvFile('PORT=1\nLLM_API_KEY sk-secret-value\n'));
    expect(err.message).toBe('Bad configuration: .env line 2: not NAME=value');
    expect(err.message).not.toContain('sk-secret');
    expect(errorOf(() => parseEnvFile('1PORT=3\nA=1\n-B=2')).message).toMatch(/lines 1, 3:/);
  });

  it('a quote never closed is refused at the line that opened it', () => {
    const err = errorOf(() => parseEnvFile('A=1\nB="open\nC=2\n'));
    expect(err.message).toBe('Bad configuration: .env line 2: not NAME=value');
  });

  it('an unreadable .env (a directory) is a configuration error, not a crash', () => {
    expect(errorOf(() => withEnvFile({}, dir)).message).toMatch(/^Bad configuration: cannot read /);
  });
});

describe('issue 32: a configuration that says what is wrong', () => {
  it('a file ENV_FILE names that does not exist is refused; a missing .env is not', async () => {
    const named = join(dir, 'no-such.env');
    expect(errorOf(() => withEnvFile({ ENV_FILE: named })).message).toBe(
      `Bad configuration: ENV_FILE names ${named}, which does not exist`,
    );
    expect(withEnvFile({ PORT: '1' }, join(dir, 'no-such-either.env'))).toEqual({ PORT: '1' });
  });

  it('a name set twice in the file is refused with both line numbers (never the values)', async () => {
    const path = await file(
      'PORT=4111\n# c\nLLM_API_KEY=sk-secret-1\nexport PORT=4222\nLLM_API_KEY="sk-secret-2"\n',
    );
    const msg = errorOf(() => withEnvFile({}, path)).message;
    expect(msg).toBe(
      `Bad configuration: ${path}: PORT is set on line 1 and again on line 4; LLM_API_KEY is set on line 3 and again on line 5; keep one`,
    );
    expect(msg).not.toContain('secret');
    // A line inside a quoted multi-line value is no assignment.
    expect(parseEnvFile('KEY="a\nKEY=b\n"\nB=1\n')).toEqual({ KEY: 'a\nKEY=b\n', B: '1' });
  });

  it('numbers are named in words', () => {
    const lineOf = (env: Record<string, string>) => errorOf(() => loadConfig(env)).message;
    expect(lineOf({ PORT: 'abc' })).toBe('Bad configuration: PORT must be a number');
    expect(lineOf({ PORT: '3.5' })).toBe('Bad configuration: PORT must be a whole number');
    expect(lineOf({ PORT: '70000' })).toBe('Bad configuration: PORT must be at most 65535');
    expect(lineOf({ JOB_LOCK_MS: '5' })).toBe('Bad configuration: JOB_LOCK_MS must be at least 1000');
    // A message of our own is kept as written.
    expect(lineOf({ LLM_CONTEXT_TOKENS: '100' })).toBe(
      'Bad configuration: LLM_CONTEXT_TOKENS: a context window of at least 4096 tokens',
    );
  });

  it('FEISHU_APP_ID is refused unless it has the console’s shape: cli_ and 16 hex digits', () => {
    const secret = { FEISHU_APP_SECRET: 's' };
    for (const bad of ['cli_test', 'cli_a1b2c3d4e5f6071', 'a1b2c3d4e5f60718', 'cli_a1b2c3d4e5f6071g'])
      expect(errorOf(() => loadConfig({ FEISHU_APP_ID: bad, ...secret })).message).toMatch(
        /^Bad configuration: FEISHU_APP_ID: not a Feishu app id: cli_ and 16 hex digits/,
      );
    expect(loadConfig({ FEISHU_APP_ID: 'cli_a1b2c3d4e5f60718', ...secret }).feishuEnabled).toBe(true);
  });
});
