import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_TS } from '../../kit/source-node.ts';

const tmps: string[] = [];
afterEach(() => {
  for (const d of tmps.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A tree of the given files (path → source) in a temporary directory. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-imports-'));
  tmps.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Runs the real lint step (`scripts/check-imports.ts`) on a tree. */
function runCheck(root: string) {
  const r = spawnSync(process.execPath, [...NODE_TS, 'scripts/check-imports.ts', '--root', root], {
    encoding: 'utf8',
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const CLEAN = {
  'src/context.ts': "import type { Keys } from './store/keys.ts';\nexport interface Ctx { keys: Keys }\n",
  'src/store/keys.ts': 'export interface Keys { prefix: string }\n',
  'src/store/queues.ts': "import type { Keys } from './keys.ts';\nexport const q = (k: Keys) => k.prefix;\n",
  'src/store/migrations/migration.ts': "import type { Ctx } from '../../context.ts';\nexport type M = Ctx;\n",
  'src/store/migrations/0002-step.ts':
    "import { createHash } from 'node:crypto';\nimport type { Redis } from 'ioredis';\nimport type { M } from './migration.ts';\nexport const up = (m: M, r: Redis) => [m, r, createHash];\n",
};

describe('npm run lint: import circles and frozen migrations (issue 32)', () => {
  it('passes a tree with no circle and migration steps importing only their helper, node: and ioredis', () => {
    const r = runCheck(tree(CLEAN));
    expect(r.out).toBe(
      'imports: no import circle, migration steps import no live code, artifacts import no executor code\n',
    );
    expect(r.code).toBe(0);
  });

  it('fails on a type-only circle, naming it in import order', () => {
    const r = runCheck(
      tree({
        ...CLEAN,
        'src/store/queues.ts': "import type { Ctx } from '../context.ts';\nexport const q = (c: Ctx) => c;\n",
        'src/context.ts':
          "import type { q } from './store/queues.ts';\nexport interface Ctx { q: typeof q }\n",
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      'imports: import circle: src/context.ts → src/store/queues.ts → src/context.ts; move what both need to where it belongs\n',
    );
  });

  it('lists each circle, one line each, through re-exports and dynamic imports too', () => {
    const r = runCheck(
      tree({
        ...CLEAN,
        'test/kit/a.ts': "export { b } from './b.ts';\nexport const a = 1;\n",
        'test/kit/b.ts': "import { c } from './c.ts';\nexport const b = c;\n",
        'test/kit/c.ts': "export const c = () => import('./a.ts');\n",
        'bench/x.ts': "import { y } from './y.ts';\nexport const x = y;\n",
        'bench/y.ts': "export type Y = import('./x.ts').X;\nexport const y = 1;\nexport type X = 1;\n",
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out.trim().split('\n')).toEqual([
      'imports: import circle: bench/x.ts → bench/y.ts → bench/x.ts; move what both need to where it belongs',
      'imports: import circle: test/kit/a.ts → test/kit/b.ts → test/kit/c.ts → test/kit/a.ts; move what both need to where it belongs',
    ]);
  });

  it('fails a migration step importing live code, naming the line; other store files may', () => {
    const r = runCheck(
      tree({
        ...CLEAN,
        'src/tickets/ref-key.ts': "export const conv = (c: string) => 'conv:' + c;\n",
        'src/store/queues.ts': "import { conv } from '../tickets/ref-key.ts';\nexport const q = conv;\n",
        'src/store/migrations/0003-step.ts':
          "import type { M } from './migration.ts';\nimport { conv } from '../../tickets/ref-key.ts';\nimport { z } from 'zod';\nexport const up = (m: M) => [m, conv, z];\n",
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out.trim().split('\n')).toEqual([
      "imports: src/store/migrations/0003-step.ts:2: a migration step imports '../../tickets/ref-key.ts'; steps are frozen — inline what it needs as it was when the step shipped (only ./migration.ts, node: builtins and ioredis)",
      "imports: src/store/migrations/0003-step.ts:3: a migration step imports 'zod'; steps are frozen — inline what it needs as it was when the step shipped (only ./migration.ts, node: builtins and ioredis)",
    ]);
  });

  it('fails artifacts importing the executor, a type included; the executor may import artifacts', () => {
    const r = runCheck(
      tree({
        ...CLEAN,
        'src/executor/turn-scope.ts': 'export interface TurnScope { id: string }\n',
        'src/executor/schedule-turn.ts':
          "import type { Layer } from '../artifacts/layer.ts';\nexport const go = (l: Layer) => l;\n",
        'src/artifacts/layer.ts': 'export interface Layer { tier: string }\n',
        'src/artifacts/peer.ts':
          "import type { TurnScope } from '../executor/turn-scope.ts';\nexport const p = (s: TurnScope) => s;\n",
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      "imports: src/artifacts/peer.ts:1: artifacts import '../executor/turn-scope.ts'; artifacts describe and never act — let the executor hand over what they need\n",
    );
  });
});
