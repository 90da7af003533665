import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');

/** The `npm` commands of a shell text, in order, each without its flags and comment (`npm ci`, `npm run setup`). */
function npmSteps(shell: string): string[] {
  return shell
    .split('\n')
    .flatMap((line) => line.replace(/#.*/, '').split('&&'))
    .map((cmd) => cmd.trim())
    .filter((cmd) => cmd.startsWith('npm '))
    .map((cmd) =>
      cmd
        .split(/\s+/)
        .filter((w) => !w.startsWith('-'))
        .join(' '),
    );
}

/** The README's quick start without Docker, up to the suite: what a new user runs first. */
function readmeSteps(): string[] {
  const readme = read('README.md');
  const from = readme.indexOf('Without Docker');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from))?.[1] ?? '';
  const steps = npmSteps(block);
  return steps.slice(0, steps.indexOf('npm test') + 1);
}

/** Whether `part` appears in `whole` in the same order (other steps may come between). */
function inOrder(part: string[], whole: string[]): boolean {
  let i = 0;
  for (const step of whole) if (step === part[i]) i++;
  return i === part.length;
}

describe('issue 16: CI runs the README’s quick start on a clean clone', () => {
  it('.ci/run runs the README’s steps (npm run setup, npm ci, npm test) in the README’s order', () => {
    const readme = readmeSteps();
    expect(readme).toEqual(['npm run setup', 'npm ci', 'npm test']);
    const ci = npmSteps(read('.ci/run'));
    expect(inOrder(readme, ci)).toBe(true);
    // Nothing before the setup step: CI starts where a new user starts.
    expect(ci[0]).toBe('npm run setup');
  });

  it('issue 32: CI and the README put the Node 24 setup brought first on PATH, after setup and before npm ci', () => {
    for (const text of [
      read('.ci/run'),
      read('README.md').slice(read('README.md').indexOf('Without Docker')),
    ]) {
      const setup = text.search(/^npm run setup/m);
      const path = text.indexOf('$PWD/.node/bin:$PATH');
      expect(setup).toBeGreaterThanOrEqual(0);
      expect(path).toBeGreaterThan(setup);
      expect(text.search(/^npm ci/m)).toBeGreaterThan(path);
    }
  });

  it('issue 32: one Node 24 release in .nvmrc and setup.sh; engines and the image agree', () => {
    const nvmrc = read('.nvmrc').trim();
    expect(nvmrc).toMatch(/^24\.\d+\.\d+$/);
    expect(read('scripts/setup.sh')).toContain(`NODE_VERSION=${nvmrc}\n`);
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.engines.node).toBe('>=22.12');
    expect(pkg.devDependencies['@types/node']).toMatch(/^24\.\d+\.\d+$/);
    expect(read('Dockerfile')).toContain('ARG NODE_IMAGE=node:24-');
    // Every version pinned exactly.
    for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }))
      expect(`${name}@${version}`).toMatch(/@\d+\.\d+\.\d+$/);
  });

  it('the comparison can fail: steps out of order or missing are told apart', () => {
    expect(inOrder(['npm run setup', 'npm ci', 'npm test'], ['npm ci', 'npm run setup', 'npm test'])).toBe(
      false,
    );
    expect(inOrder(['npm run setup', 'npm ci', 'npm test'], ['npm run setup', 'npm test'])).toBe(false);
    expect(npmSteps('npm ci --no-audit && npm test # the suite\n  npm run lint')).toEqual([
      'npm ci',
      'npm test',
      'npm run lint',
    ]);
  });
});
