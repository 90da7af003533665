import { constants, copyFileSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * A task's hidden tests (issue 47): the files of its `tests/` folder, laid over a checkout at the
 * same paths just before `check` runs — as SWE-bench applies its test patch after the agent has
 * finished — so whatever the agent did to those paths (a test edited to pass, deleted, replaced by
 * a link) is replaced by the task's own file. Runs on the host, on a checkout no code of the task
 * has run in yet; a path component the pushed tree made a link or a file is removed first, so a
 * write never follows a link out of the checkout.
 */

/** Every regular file under `dir`, as paths relative to it, sorted. */
export function testFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** Copies every file of `testsDir` into `checkout` at its path, replacing what is there. */
export function layTests(testsDir: string, checkout: string): string[] {
  const files = testFiles(testsDir);
  for (const file of files) {
    const parts = file.split(sep);
    let at = checkout;
    for (const part of parts.slice(0, -1)) {
      at = join(at, part);
      const kind = kindOf(at);
      if (kind === 'dir') continue;
      if (kind !== 'none') rmSync(at, { force: true });
      mkdirSync(at);
    }
    const target = join(checkout, file);
    if (kindOf(target) !== 'none') rmSync(target, { recursive: true, force: true });
    copyFileSync(join(testsDir, file), target, constants.COPYFILE_EXCL);
  }
  return files;
}

function kindOf(path: string): 'dir' | 'other' | 'none' {
  try {
    return lstatSync(path).isDirectory() ? 'dir' : 'other';
  } catch {
    return 'none';
  }
}
