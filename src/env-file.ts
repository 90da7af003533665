import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError } from './config.ts';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;

/**
 * Issue 16: `npm start` reads `.env` (as `cp .env.example .env` promises), or the file `ENV_FILE`
 * names. Returns `env` with the file's variables added underneath: a variable already set in the
 * real environment wins. A missing file adds nothing. The result goes to `loadConfig`; `process.env` is left untouched so
 * the file's secrets never reach child processes through inheritance.
 */
export function withEnvFile(
  env: Record<string, string | undefined>,
  path = env.ENV_FILE || '.env',
): Record<string, string | undefined> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return env;
    throw new ConfigError(`Bad configuration: cannot read ${path}: ${(err as Error).message}`);
  }
  const fromFile = parseEnvFile(text, path);
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  return merged;
}

/**
 * Node's parser silently drops or glues lines it does not understand (`PORT 3000` vanishes), so
 * each line is checked first. The error names the line number only: the line may hold a secret.
 */
export function parseEnvFile(text: string, path = '.env'): Record<string, string> {
  const bad = badLines(text);
  if (bad.length) {
    const which = bad.length === 1 ? `line ${bad[0]}` : `lines ${bad.join(', ')}`;
    throw new ConfigError(`Bad configuration: ${path} ${which}: not NAME=value`);
  }
  const parsed = parseEnv(text) as Record<string, string>;
  for (const key of Object.keys(parsed)) {
    if (!NAME.test(key))
      throw new ConfigError(`Bad configuration: ${path}: a variable name is not NAME=value`);
  }
  return parsed;
}

/** 1-based numbers of the lines that are neither blank, a comment, `NAME=value`, nor inside a quoted value. */
function badLines(text: string): number[] {
  const bad: number[] = [];
  let openQuote: string | null = null;
  let openedAt = 0;
  text.split(/\r?\n/).forEach((line, i) => {
    if (openQuote) {
      if (line.includes(openQuote)) openQuote = null;
      return;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const m = ASSIGNMENT.exec(line);
    if (!m) {
      bad.push(i + 1);
      return;
    }
    const value = (m[2] ?? '').trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !value.slice(1).includes(quote)) {
      openQuote = quote;
      openedAt = i + 1;
    }
  });
  // A quote never closed would swallow every later line into one value.
  if (openQuote) bad.push(openedAt);
  return bad;
}
