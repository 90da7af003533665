export type Pathspecs = { ok: true; specs: string[] } | { ok: false; why: string };

/** `*.{ts,tsx}` → `*.ts`, `*.tsx`: git's globs have no braces, models write them anyway. One level. */
function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  const close = glob.indexOf('}', open);
  if (open === -1 || close === -1) return [glob];
  const [head, body, tail] = [glob.slice(0, open), glob.slice(open + 1, close), glob.slice(close + 1)];
  return body.split(',').map((alt) => head + alt + tail);
}

/**
 * The git pathspecs for a folder of the checkout (`rel`, from `confinePath`) and an optional glob
 * (issue 28): a glob without `/` matches file names at any depth under the folder (`*.ts`), one
 * with `/` is relative to it (`src/**\/*.test.ts`). The `:(glob)` magic is ours: the model's text
 * is only ever a glob.
 */
export function pathspecs(rel: string, glob: string | undefined): Pathspecs {
  if (glob === undefined || glob.trim() === '') return { ok: true, specs: [rel] };
  const g = glob.trim();
  if (g.startsWith('/') || g.startsWith(':') || g.split('/').includes('..'))
    return {
      ok: false,
      why: `glob "${glob}" must be relative to the folder, without ".." or pathspec magic`,
    };
  const base = rel === '.' ? '' : `${rel}/`;
  return {
    ok: true,
    specs: expandBraces(g).map((one) => `:(glob)${base}${one.includes('/') ? one : `**/${one}`}`),
  };
}
