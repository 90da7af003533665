import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError } from './config.ts';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;

/**
 * Issue 16: `npm start` reads `.env` (as `cp .env.example .env` promises), or the file `ENV_FILE`
 * names. Returns `env` with the file's variables added underneath: a variable already set in the
 * real environment wins. A missing `.env` adds nothing; a missing file that `ENV_FILE` names is
 * refused (issue 32: a typo there would otherwise start the bot without its settings). The result
 * goes to `loadConfig`; `process.env` is left untouched so the file's secrets never reach child
 * processes through inheritance.
 */
export function withEnvFile(
  env: Record<string, string | undefined>,
  path = env.ENV_FILE || '.env',
): Record<string, string | undefined> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing && !env.ENV_FILE) return env;
    if (missing) throw new ConfigError(`Bad configuration: ENV_FILE names ${path}, which does not exist`);
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
  const twice = duplicateKeys(text);
  if (twice.length) {
    const which = twice.map((d) => `${d.name} is set on line ${d.first} and again on line ${d.again}`);
    throw new ConfigError(`Bad configuration: ${path}: ${which.join('; ')}; keep one`);
  }
  const parsed = parseEnv(text) as Record<string, string>;
  for (const key of Object.keys(parsed)) {
    if (!NAME.test(key))
      throw new ConfigError(`Bad configuration: ${path}: a variable name is not NAME=value`);
  }
  return parsed;
}

/** Issue 32: a name assigned twice (the later silently wins in Node's parser), with both 1-based line numbers. */
function duplicateKeys(text: string): { name: string; first: number; again: number }[] {
  const seen = new Map<string, number>();
  const twice: { name: string; first: number; again: number }[] = [];
  for (const { name, line } of assignments(text)) {
    const first = seen.get(name);
    if (first === undefined) seen.set(name, line);
    else twice.push({ name, first, again: line });
  }
  return twice;
}

/** The `NAME=` lines outside quoted multi-line values: each name with its 1-based line number. */
function assignments(text: string): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  let openQuote: string | null = null;
  text.split(/\r?\n/).forEach((line, i) => {
    if (openQuote) {
      if (line.includes(openQuote)) openQuote = null;
      return;
    }
    const m = ASSIGNMENT.exec(line);
    if (!m?.[1]) return;
    found.push({ name: m[1], line: i + 1 });
    const value = (m[2] ?? '').trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !value.slice(1).includes(quote))
      openQuote = quote;
  });
  return found;
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
