import { spawnSync } from 'node:child_process';
import { cp, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run build [-- <outDir>] [--no-check]` (issue 16): compiled JavaScript for `node dist/src/main.js` (the
 * Docker image). tsc rewrites the `.ts` imports; the files the code reads at run time relative
 * to its own location (`prompts/`, `skills/`, `roles/`, `crews/`, `workflows/`, the panel's
 * assets) are copied to the same places relative to the output, so nothing reads the sources.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
// `--no-check`: emit without type-checking (the same files; `npm run typecheck` is its own step) —
// the compiled-build test uses it, since a second full type-check there would only cost time.
const args = process.argv.slice(2);
const noCheck = args.includes('--no-check');
const out = resolve(args.find((a) => a !== '--no-check') ?? join(root, 'dist'));

/** Read at run time through `new URL(…, import.meta.url)`: keep in step with those files. */
const RUNTIME_FILES = [
  'prompts',
  'skills',
  'roles',
  'crews',
  'workflows',
  'src/web/panel/assets',
  // The eval tasks the panel's Evaluate runs by default (src/eval/cli.ts DEFAULT_TASKS).
  'eval/tasks',
];

await rm(out, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    join(root, 'tsconfig.build.json'),
    '--outDir',
    out,
    ...(noCheck ? ['--noCheck'] : []),
  ],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
for (const dir of RUNTIME_FILES) await cp(join(root, dir), join(out, dir), { recursive: true });
// Plain JavaScript beside the sources, which tsc leaves alone: the screenshot driver and its page
// reader (run by node in the sandbox), the spawn host the worker forks, the TypeScript syntax
// formatter. Every one under src/, so a new one cannot be left out of the image.
for (const file of await readdir(join(root, 'src'), { recursive: true }))
  if (/\.(c|m)js$/.test(file)) await cp(join(root, 'src', file), join(out, 'src', file));
process.stdout.write(`build: ${out} (start it with node ${join(out, 'src/main.js')})\n`);
