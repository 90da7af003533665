import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type * as ContextModule from '../src/create-context.ts';
import type * as ServeModule from '../src/web/serve-app.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * Where `builtProduct` puts the compiled product: under `dist/` (ignored by git and the linter),
 * inside the project so its imports find `node_modules` and its `package.json` makes it ESM.
 */
const BUILT_PRODUCT_DIR = join(root, 'dist', 'bench-product');

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

/** The product's entry points the ingest benches start it with. */
export type ProductEntry = Pick<typeof ContextModule, 'createContext' | 'closeContext'> &
  Pick<typeof ServeModule, 'serveApp'>;

/** The entry points from the build in `dir`, or from the sources when `dir` is undefined. */
export async function productEntry(dir: string | undefined): Promise<ProductEntry> {
  const from = (path: string) => (dir ? `${dir}/${path}.js` : `../${path}.ts`);
  const [context, serve] = await Promise.all([
    import(from('src/create-context')) as Promise<typeof ContextModule>,
    import(from('src/web/serve-app')) as Promise<typeof ServeModule>,
  ]);
  return {
    createContext: context.createContext,
    closeContext: context.closeContext,
    serveApp: serve.serveApp,
  };
}

/** The compiled product's entry points, built first if this process has not yet. */
export async function builtEntry(): Promise<ProductEntry> {
  return productEntry(await builtProduct());
}
