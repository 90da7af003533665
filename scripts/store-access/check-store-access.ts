import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findCastParses } from './find-cast-parses.ts';
import { findRedisUses } from './find-redis-uses.ts';

/** The files the rule looks at, relative to the repository root. */
const ROOTS = ['src', 'handlers'];
/** Everything under here may use Redis: the store itself. */
const STORE_DIR = 'src/store/';
/**
 * Shipped migration steps are never edited (AGENTS.md); each reads the old shape it migrates, so
 * the cast rule leaves them be. New steps read through a schema like any owner.
 */
const SHIPPED_STEPS = new Set(['src/store/migrations/0002-conversation-index.ts']);

export interface StoreAccessLists {
  /** Modules that own a stored record (or wire the connection) and may use Redis. */
  owners: string[];
  /** The ratchet: files that still use Redis and are waiting to be moved onto an owner. */
  notYetMigrated: string[];
}

/**
 * Reads a list file: one repository-relative path per line; `#` starts a comment, so each
 * owner can say which record it owns.
 */
export function readList(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
}

function tsFiles(root: string, dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) return tsFiles(root, rel);
    return rel.endsWith('.ts') ? [rel] : [];
  });
}

/**
 * Issue 20 ("every stored record has one owner"): Redis only in `src/store/` and the owner
 * modules, and none of those casts parsed JSON to a type (`JSON.parse(x) as T`). Returns the problems, one line each; empty means the rule holds. The ratchet may only
 * shrink: a listed file that no longer uses Redis (or no longer exists) is a problem too, so
 * whoever migrates a file also takes it off the list.
 */
export function checkStoreAccess(root: string, lists: StoreAccessLists): string[] {
  const problems: string[] = [];
  const owners = new Set(lists.owners);
  const pending = new Set(lists.notYetMigrated);
  for (const f of owners)
    if (pending.has(f)) problems.push(`${f}: listed both as an owner and as not yet migrated`);
  const users = new Set<string>();
  for (const file of ROOTS.flatMap((r) => tsFiles(root, r))) {
    const source = readFileSync(join(root, file), 'utf8');
    const mayRead = file.startsWith(STORE_DIR) || owners.has(file);
    if (mayRead && !SHIPPED_STEPS.has(file))
      for (const c of findCastParses(file, source))
        problems.push(
          `${file}:${c.line}: stored JSON cast to a type (${c.text}); read it through the record’s ` +
            'zod schema with parseRecord or readRecord (src/store/parse-record.ts)',
        );
    const uses = findRedisUses(file, source);
    if (!uses.length) continue;
    users.add(file);
    if (mayRead || pending.has(file)) continue;
    for (const u of uses)
      problems.push(
        `${file}:${u.line}: Redis used outside src/store/ and the owner modules (${u.text}); ` +
          'call the record’s owner module instead, or add a new owner to scripts/store-access/owners.txt',
      );
  }
  for (const f of pending)
    if (!users.has(f))
      problems.push(`${f}: no longer uses Redis; take it off scripts/store-access/not-yet-migrated.txt`);
  for (const f of owners)
    if (!users.has(f)) problems.push(`${f}: listed as an owner but does not use Redis; take it off the list`);
  return problems;
}
