import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The demo's sample repository: a tiny greeting library, one commit on `main`, in a bare repository. */

export const SAMPLE_REPO = 'demo/sample';

const FILES: Record<string, string> = {
  'README.md': '# sample\n\nA tiny greting library, the repository of the Switchyard demo.\n',
  'AGENTS.md': 'Run `node --test` before you push.\n',
  'greet.js': "export const greet = (name) => 'Hello, ' + name;\n",
  'greet.test.js':
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { greet } from './greet.js';\n\ntest('greet', () => assert.equal(greet('Ada'), 'Hello, Ada'));\n",
  'package.json': '{ "name": "sample", "private": true, "type": "module" }\n',
};

/** Makes `<root>/sample.git` holding FILES; returns its path. */
export function makeSampleRepo(root: string): string {
  const bare = join(root, 'sample.git');
  const seed = join(root, 'seed');
  mkdirSync(seed, { recursive: true });
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: root,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: 'Switchyard demo',
        GIT_AUTHOR_EMAIL: 'demo@switchyard.invalid',
        GIT_COMMITTER_NAME: 'Switchyard demo',
        GIT_COMMITTER_EMAIL: 'demo@switchyard.invalid',
      },
    });
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  git(seed, 'init', '-q', '-b', 'main');
  for (const [path, content] of Object.entries(FILES)) writeFileSync(join(seed, path), content);
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'A tiny greeting library');
  git(seed, 'push', '-q', bare, 'main');
  return bare;
}
