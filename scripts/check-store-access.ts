import { join, resolve } from 'node:path';
import { checkStoreAccess, readList } from './store-access/check-store-access.ts';

/**
 * Issue 20: `npm run lint` fails when code outside `src/store/` and the listed owner modules
 * touches Redis. `--root DIR` checks another tree (the test's fixture); the lists are always read
 * from that tree's `scripts/store-access/`.
 */
const at = process.argv.indexOf('--root');
const root = resolve(at > 0 ? (process.argv[at + 1] ?? '.') : '.');
const dir = join(root, 'scripts', 'store-access');
const problems = checkStoreAccess(root, {
  owners: readList(join(dir, 'owners.txt')),
  notYetMigrated: readList(join(dir, 'not-yet-migrated.txt')),
});
if (problems.length) {
  for (const p of problems) process.stderr.write(`store access: ${p}\n`);
  process.exit(1);
}
process.stdout.write('store access: Redis only in src/store/ and the owner modules, no stored JSON cast\n');
