import { spawnSync } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run build [-- <outDir>]` (issue 16): compiled JavaScript for `node dist/src/main.js` (the
 * Docker image). tsc rewrites the `.ts` imports; the files the code reads at run time relative
 * to its own location (`prompts/`, `skills/`, `roles/`, `crews/`, `workflows/`, the panel's
 * assets) are copied to the same places relative to the output, so nothing reads the sources.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const out = resolve(process.argv[2] ?? join(root, 'dist'));

/** Read at run time through `new URL(…, import.meta.url)`: keep in step with those files. */
const RUNTIME_FILES = [
  'prompts',
  'skills',
  'roles',
  'crews',
  'workflows',
  'src/web/panel/assets',
  // The screenshot tool's driver: plain JavaScript that node runs inside the sandbox (issue 15).
  'src/executor/screenshot/shoot-page.mjs',
  // The eval tasks the panel's Evaluate runs by default (src/eval/cli.ts DEFAULT_TASKS).
  'eval/tasks',
];

await rm(out, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', out],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
for (const dir of RUNTIME_FILES) await cp(join(root, dir), join(out, dir), { recursive: true });
process.stdout.write(`build: ${out} (start it with node ${join(out, 'src/main.js')})\n`);
