import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCastParses } from '../../../scripts/store-access/find-cast-parses.ts';
import { findRedisUses } from '../../../scripts/store-access/find-redis-uses.ts';
import { NODE_TS } from '../../kit/source-node.ts';

const FIXTURE = 'test/fixtures/store-access';
const tmps: string[] = [];
afterEach(() => {
  for (const d of tmps.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs the real lint step (`scripts/check-store-access.ts`) on a tree. */
function runCheck(root: string) {
  const r = spawnSync(process.execPath, [...NODE_TS, 'scripts/check-store-access.ts', '--root', root], {
    encoding: 'utf8',
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

function fixtureCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-access-'));
  tmps.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

describe('issue 20: Redis only in src/store/ and the owner modules (npm run lint)', () => {
  it('fails on a new ctx.redis call outside the owners, naming the file and line', () => {
    const r = runCheck(FIXTURE);
    expect(r.code).toBe(1);
    expect(r.out).toContain('src/router/new-call.ts:4: Redis used outside');
    // The store, the owner, the ratchet's file and Lua text are all allowed.
    expect(r.out).not.toMatch(/conn\.ts|notes\.ts|legacy\.ts|lua-only\.ts/);
  }, 30_000);

  it('fails on stored JSON cast to a type in an owner module, and only on the cast', () => {
    const r = runCheck(FIXTURE);
    expect(r.code).toBe(1);
    expect(r.out).toContain('src/tickets/cast-read.ts:11: stored JSON cast to a type');
    // The owner's Redis call and the cast's text inside a string are not problems.
    expect(r.out).not.toMatch(/cast-read\.ts:(8|10):/);
  }, 30_000);

  it('passes once the planted call and the planted cast are gone', () => {
    const dir = fixtureCopy();
    rmSync(join(dir, 'src/router/new-call.ts'));
    writeFileSync(
      join(dir, 'src/tickets/cast-read.ts'),
      "import type { Conn } from '../store/conn.ts';\n\nexport const readNote = (ctx: Conn) => ctx.redis.get('note');\n",
    );
    expect(runCheck(dir)).toMatchObject({ code: 0 });
  }, 30_000);

  it('the ratchet only shrinks: a listed file that no longer uses Redis fails the check', () => {
    const dir = fixtureCopy();
    rmSync(join(dir, 'src/router/new-call.ts'));
    writeFileSync(join(dir, 'src/router/legacy.ts'), 'export const legacy = () => 1;\n');
    const r = runCheck(dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('src/router/legacy.ts: no longer uses Redis; take it off');
  }, 30_000);

  it('finds every way of reaching the connection, and nothing in strings or types', () => {
    const src = [
      "const a = ctx.redis.get('k');", // 1
      'const { redis } = ctx;', // 2
      "const b = ctx['redis'];", // 3
      "import type { Redis } from 'ioredis';", // 4
      'const c = deps.redis;', // 5
      'const lua = "redis.call(\'GET\', KEYS[1])";', // 6: Lua text
      "type P = Pick<Ctx, 'redis'>;", // 7: a type naming the field
      '// ctx.redis in a comment', // 8
    ].join('\n');
    expect(findRedisUses('x.ts', src).map((u) => u.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it('finds every cast of JSON.parse, through parentheses and old-style assertions', () => {
    const src = [
      'const a = JSON.parse(raw) as Note;', // 1
      'const b = (JSON.parse(raw)) as unknown as Note;', // 2
      'const c = <Note>JSON.parse(raw);', // 3
      'const d: unknown = JSON.parse(raw);', // 4: not a cast
      'const e = Schema.parse(JSON.parse(raw));', // 5: validated
      "const f = 'JSON.parse(raw) as Note';", // 6: text
    ].join('\n');
    expect(findCastParses('x.ts', src).map((u) => u.line)).toEqual([1, 2, 3]);
  });
});
