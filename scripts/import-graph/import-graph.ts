import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One import of a file: the specifier as written and the repository-relative file it resolves to. */
export interface ImportEdge {
  specifier: string;
  /** Repository-relative path of the imported file; undefined for packages and node builtins. */
  target: string | undefined;
  line: number;
}

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
};

/** The `.ts` files under `dir` (relative to `root`), recursively. */
export function tsFiles(root: string, dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) return tsFiles(root, rel);
    return rel.endsWith('.ts') && !rel.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Every module specifier in a source: imports and re-exports (type-only ones included), `import()`. */
function specifiers(sf: ts.SourceFile): { text: string; pos: number }[] {
  const out: { text: string; pos: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      out.push({ text: node.moduleSpecifier.text, pos: node.getStart(sf) });
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      out.push({ text: node.arguments[0].text, pos: node.getStart(sf) });
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      out.push({ text: node.argument.literal.text, pos: node.getStart(sf) });
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The imports of one repository-relative file, resolved the way the compiler resolves them. */
export function importsOf(root: string, file: string): ImportEdge[] {
  const abs = resolve(root, file);
  const sf = ts.createSourceFile(abs, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, true);
  return specifiers(sf).map(({ text, pos }) => {
    const line = sf.getLineAndCharacterOfPosition(pos).line + 1;
    const r = ts.resolveModuleName(text, abs, OPTIONS, ts.sys).resolvedModule;
    const inTree = r && !r.isExternalLibraryImport && !r.resolvedFileName.includes('/node_modules/');
    const target = inTree ? relative(root, r.resolvedFileName) : undefined;
    // A relative specifier the compiler cannot resolve still names a file in the tree.
    const guess = !r && text.startsWith('.') ? relative(root, resolve(dirname(abs), text)) : undefined;
    return { specifier: text, target: target ?? guess, line };
  });
}

/** The graph of in-tree imports: file → the in-tree files it imports. */
export function importGraph(root: string, dirs: string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const f of dirs.flatMap((d) => tsFiles(root, d))) {
    const to = new Set<string>();
    for (const e of importsOf(root, f)) if (e.target && e.target !== f) to.add(e.target);
    graph.set(f, to);
  }
  return graph;
}

/**
 * The import circles of a graph: every strongly connected component of more than one file
 * (Tarjan), each given as one shortest circle through its first file, so the message names the
 * files to untangle in the order they import each other.
 */
export function findCycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const comps: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) ?? 0, idx.get(w) ?? 0));
    }
    if (low.get(v) !== idx.get(v)) return;
    const comp: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      on.delete(w);
      comp.push(w);
      if (w === v) break;
    }
    if (comp.length > 1) comps.push(comp.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  return comps.map((c) => shortestCircle(graph, new Set(c), c[0] as string));
}

/** Breadth-first: the shortest path from `start` back to itself inside one component. */
function shortestCircle(graph: Map<string, Set<string>>, comp: Set<string>, start: string): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!comp.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0] as string) as string);
        return path;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** A migration step's file: `src/store/migrations/NNNN-name.ts`. */
const MIGRATION_STEP = /^src\/store\/migrations\/\d{4}-[^/]+\.ts$/;
/** What a step may import: its own helper module, node builtins, ioredis. */
const STEP_HELPER = 'src/store/migrations/migration.ts';

/**
 * Migrations are frozen: a step imports nothing from live code, so a later change cannot alter what
 * an old step does. Returns one problem per forbidden import.
 */
export function migrationImports(root: string, files: string[]): string[] {
  return files
    .filter((f) => MIGRATION_STEP.test(f))
    .flatMap((f) =>
      importsOf(root, f)
        .filter(
          (e) => e.target !== STEP_HELPER && !e.specifier.startsWith('node:') && e.specifier !== 'ioredis',
        )
        .map(
          (e) =>
            `${f}:${e.line}: a migration step imports '${e.specifier}'; steps are frozen — inline what it ` +
            'needs as it was when the step shipped (only ./migration.ts, node: builtins and ioredis)',
        ),
    );
}

/**
 * Artifacts describe and never act: `src/artifacts/` reads what it is handed (the trusted tree,
 * the turn's profile) and imports nothing of the executor — no tool, no workspace, no scheduling,
 * not even a type. Returns one problem per such import.
 */
export function artifactImports(root: string, files: string[]): string[] {
  return files
    .filter((f) => f.startsWith('src/artifacts/'))
    .flatMap((f) =>
      importsOf(root, f)
        .filter((e) => e.target?.startsWith('src/executor/'))
        .map(
          (e) =>
            `${f}:${e.line}: artifacts import '${e.specifier}'; artifacts describe and never act — ` +
            'let the executor hand over what they need',
        ),
    );
}
