/**
 * The arguments node needs before a `.ts` file of this checkout: none where this Node strips
 * types itself (22.18 and later, 23.6 and later — the sources use only erasable syntax, which
 * tsconfig's `erasableSyntaxOnly` keeps so), else tsx's loader (a dev dependency). Node's own
 * stripping starts a process in about half the CPU time tsx takes. Throws where neither can run
 * (a build without tsx, on a Node that does not strip types).
 */
export function sourceNodeArgs(stripsTypes = Boolean(process.features.typescript)): string[] {
  if (stripsTypes) return [];
  return ['--import', import.meta.resolve('tsx')];
}
