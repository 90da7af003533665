import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * Where `builtProduct` puts the compiled product: under `dist/` (ignored by git and the linter),
 * inside the project so its imports find `node_modules` and its `package.json` makes it ESM.
 */
export const BUILT_PRODUCT_DIR = join(root, 'dist', 'bench-product');

let building: Promise<string> | undefined;

/**
 * Issue 18: the product as the Docker image runs it — `npm run build`'s compiled JavaScript under
 * plain `node` — rather than the TypeScript sources through `tsx`, whose transform wraps every
 * named closure in a `__name` call at run time (`bench/README.md` has what that costs the webhook
 * server). Built once per bench process (about 15 s); resolves to the build's directory.
 */
export function builtProduct(): Promise<string> {
  building ??= promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts', 'build.ts'), BUILT_PRODUCT_DIR],
    { cwd: root },
  ).then(() => BUILT_PRODUCT_DIR);
  return building;
}
