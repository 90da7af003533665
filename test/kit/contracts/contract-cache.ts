import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the contract tests keep what they extract from the platforms' published definitions
 * (issue 46 item 3): `node_modules/.cache/switchyard-contracts/`, gitignored with node_modules and
 * rebuilt when a package's version (or the extractor's `format`) changes. Each extract is a folder
 * built once per machine, by the first test process that needs it, into a temporary folder renamed
 * into place: processes racing to build it each finish, and one rename wins.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const CACHE = join(ROOT, 'node_modules/.cache/switchyard-contracts');

export const requireHere = createRequire(import.meta.url);

/** The folder of an installed package (its `package.json` may be outside its `exports`). */
export function packageDir(name: string): string {
  return join(ROOT, 'node_modules', name);
}

export function packageVersion(name: string): string {
  const pkg = JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The folder of an extract, built by `build(tmpDir)` when it does not exist yet. */
export function cachedExtract(name: string, build: (dir: string) => void): string {
  const dir = join(CACHE, name);
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(tmp, { recursive: true });
  try {
    build(tmp);
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    // Another process renamed its copy first: use that one.
    if (!existsSync(dir)) throw err;
  }
  return dir;
}

export const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
