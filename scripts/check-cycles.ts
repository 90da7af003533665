import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * STYLE 12: fails when runtime imports form a cycle among our own modules (`src/`, `handlers/`).
 * Type-only imports are erased at run time and do not count. Prints each cycle found.
 */
const roots = ['src', 'handlers'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;

function edges(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1] as string));
}

const all = roots.flatMap(files).map((f) => resolve(f));
const graph = new Map(all.map((f) => [f, edges(f)]));
const state = new Map<string, 'open' | 'done'>();
const cycles: string[][] = [];

function visit(node: string, path: string[]): void {
  if (state.get(node) === 'done') return;
  if (state.get(node) === 'open') {
    cycles.push([...path.slice(path.indexOf(node)), node]);
    return;
  }
  state.set(node, 'open');
  for (const next of graph.get(node) ?? []) if (graph.has(next)) visit(next, [...path, node]);
  state.set(node, 'done');
}

for (const f of all) visit(f, []);
if (cycles.length) {
  for (const c of cycles)
    process.stderr.write(`import cycle: ${c.map((f) => relative(process.cwd(), f)).join(' → ')}\n`);
  process.exit(1);
}
process.stdout.write(`no import cycles among ${all.length} modules\n`);
