import { resolve } from 'node:path';
import { artifactImports, findCycles, importGraph, migrationImports } from './import-graph/import-graph.ts';

/**
 * Issue 32 ("the house"): `npm run lint` fails on any import circle in the tree — type-only
 * imports count — naming each one, on a migration step importing live code, and on artifacts
 * importing the executor. `--root DIR`
 * checks another tree (the test's fixture).
 */
const DIRS = ['src', 'handlers', 'scripts', 'test', 'bench'];
const at = process.argv.indexOf('--root');
const root = resolve(at > 0 ? (process.argv[at + 1] ?? '.') : '.');
const graph = importGraph(root, DIRS);
const problems = [
  ...findCycles(graph).map(
    (c) => `import circle: ${[...c, c[0]].join(' → ')}; move what both need to where it belongs`,
  ),
  ...migrationImports(root, [...graph.keys()]),
  ...artifactImports(root, [...graph.keys()]),
];
if (problems.length) {
  for (const p of problems) process.stderr.write(`imports: ${p}\n`);
  process.exit(1);
}
process.stdout.write(
  'imports: no import circle, migration steps import no live code, artifacts import no executor code\n',
);
