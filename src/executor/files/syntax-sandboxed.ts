import { lchown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandOwner } from '../sandbox/probe-sandbox.ts';
import { runOnCheckout } from '../sandbox/sandbox-command.ts';
import type { TurnScope } from '../turn-scope.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { GO_DRIVER, JS_DRIVER, PY_DRIVER, SECTION, TS_DRIVER } from './syntax-drivers.ts';

/** The checkers that run a program, each in the sandbox: they may run the checkout's own code. */
export type SandboxedKind = 'python' | 'javascript' | 'go' | 'typescript';

const INSIDE = '/switchyard-syntax';
/** The TypeScript formatter the driver requires, and where the sandbox shows it. */
const TS_SYNTAX = fileURLToPath(new URL('./ts-syntax.cjs', import.meta.url));
const TS_SYNTAX_INSIDE = '/switchyard-syntax-lib/ts-syntax.cjs';
/** Each kind's driver; `typescript` runs the checkout's own compiler, so only when it has one. */
const argvOf = (kind: SandboxedKind, confined: boolean): string[] =>
  ({
    python: ['python3', '-c', PY_DRIVER],
    javascript: ['sh', '-c', JS_DRIVER, 'sh'],
    go: ['sh', '-c', GO_DRIVER, 'sh'],
    typescript: ['node', '-e', TS_DRIVER, confined ? TS_SYNTAX_INSIDE : TS_SYNTAX],
  })[kind];

/**
 * The syntax errors of `before` and `after` as `line N: message` lists, from a checker run in the
 * sandbox on copies in a folder of their own (nothing of the checkout is changed). `before` is
 * checked only when `after` has errors: most changes parse, and each run is a sandbox's start.
 * A checker that is missing or fails answers undefined: no check, no news.
 */
export async function sandboxedErrors(
  scope: TurnScope,
  ws: Workspace,
  kind: SandboxedKind,
  ext: string,
  [before, after]: [string, string],
): Promise<[string[], string[]] | undefined> {
  const now = await errorsOf(scope, ws, kind, ext, after);
  if (!now?.length) return now && [[], now];
  const was = before === '' ? [] : await errorsOf(scope, ws, kind, ext, before);
  return was && [was, now];
}

/** A module by its look: a line that starts with an import or export statement. */
const MODULE_LINE = /^[ \t]*(import|export)[\s{*]/m;

async function errorsOf(
  scope: TurnScope,
  ws: Workspace,
  kind: SandboxedKind,
  ext: string,
  text: string,
): Promise<string[] | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-syntax-'));
  try {
    const name = `file${kind === 'javascript' && ext === '.js' ? (MODULE_LINE.test(text) ? '.mjs' : '.cjs') : ext}`;
    await writeFile(join(dir, name), text);
    // Issue 45: a sandbox run as a uid of its own reaches the copy only when it is that uid's.
    const owner = await commandOwner(scope.rt.ctx.config);
    if (owner) for (const p of [dir, join(dir, name)]) await lchown(p, owner.uid, owner.gid);
    const confined = scope.rt.ctx.config.SANDBOX !== 'none';
    const got = await runOnCheckout(
      scope.rt.ctx.config,
      ws,
      [...argvOf(kind, confined), `${confined ? INSIDE : dir}/${name}`],
      {
        writable: false,
        timeoutMs: 20_000,
        capBytes: 64 * 1024,
        network: 'none',
        binds: confined
          ? [
              { host: dir, inside: INSIDE, writable: false },
              ...(kind === 'typescript'
                ? [{ host: TS_SYNTAX, inside: TS_SYNTAX_INSIDE, writable: false }]
                : []),
            ]
          : [],
      },
    );
    if (!got.ok || got.result.exitCode !== 0) return undefined;
    const sections = got.result.stdout.split(SECTION);
    return sections.length === 2 ? READ[kind](sections[1] ?? '') : undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Lines the drivers already put as `line N: message`. */
const listed = (out: string) => out.split('\n').filter((l) => l.startsWith('line '));

/** `node --check -` prints `[stdin]:LINE`, the line, a caret, then `SyntaxError: message`. */
function nodeCheck(out: string): string[] {
  const lines = out.split('\n');
  const where = /^\[stdin\]:(\d+)$/.exec(lines.find((l) => l.startsWith('[stdin]:')) ?? '');
  const error = lines.find((l) => /^\w*Error: /.test(l));
  if (!error) return [];
  return [where ? `line ${where[1]}: ${error}` : error];
}

/** gofmt -e: `file:LINE:COLUMN: message`, one a line. */
function goCheck(out: string): string[] {
  return out
    .split('\n')
    .map((l) => /\.go:(\d+):\d+: (.*)/.exec(l))
    .flatMap((m) => (m ? [`line ${m[1]}: ${m[2]}`] : []));
}

const READ: Record<SandboxedKind, (out: string) => string[]> = {
  python: listed,
  typescript: listed,
  javascript: nodeCheck,
  go: goCheck,
};
