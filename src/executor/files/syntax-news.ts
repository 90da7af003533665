import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { runOnCheckout } from '../sandbox/sandbox-command.ts';
import type { TurnScope } from '../turn-scope.ts';
import type { Workspace } from '../workspace/workspace.ts';

const INSIDE = '/switchyard-syntax';
// ast.parse only parses: nothing of the file runs, and unlike py_compile it writes no .pyc.
const PY_CHECK = [
  'import ast, sys',
  'for f in sys.argv[1:]:',
  '    try:',
  "        ast.parse(open(f, encoding='utf-8', errors='replace').read(), f)",
  "        print('ok')",
  '    except SyntaxError as e:',
  "        print('line %s: %s' % (e.lineno, e.msg))",
  '    except Exception as e:',
  "        print('%s' % e)",
].join('\n');

/**
 * A syntax error the change brought in, in words for the model (issue 28, SWE-agent style), or
 * undefined: JSON parsed here, Python parsed by `python3` in the sandbox. An error the file
 * already had before the change is not news; neither is a check that could not run.
 */
export async function syntaxNews(
  scope: TurnScope,
  ws: Workspace,
  rel: string,
  before: string | undefined,
  after: string,
): Promise<string | undefined> {
  const ext = extname(rel).toLowerCase();
  const errors =
    ext === '.json'
      ? [before === undefined ? 'ok' : jsonError(before), jsonError(after)]
      : ext === '.py'
        ? await pythonErrors(scope, ws, before ?? '', after)
        : undefined;
  const [was, now] = errors ?? [];
  if (!now || now === 'ok' || (was !== 'ok' && sameError(was, now))) return undefined;
  return `syntax check: the change broke ${rel} — ${now}. Fix it before you go on.`;
}

/** Two errors alike but for where they are (an edit above moves them). */
const sameError = (a: string | undefined, b: string) =>
  a !== undefined && a.replace(/\d+/g, '#') === b.replace(/\d+/g, '#');

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return 'ok';
  } catch (err) {
    const msg = (err as Error).message;
    const at = /at position (\d+)/.exec(msg);
    if (!at) return `invalid JSON: ${msg}`;
    const upTo = text.slice(0, Number(at[1]));
    const line = upTo.split('\n').length;
    const column = upTo.length - upTo.lastIndexOf('\n');
    return `invalid JSON: ${msg.replace(/ in JSON at position \d+.*$/, '')} (line ${line}, column ${column})`;
  }
}

/** The first syntax error of each text (`ok` for none), or undefined when Python cannot run here. */
async function pythonErrors(
  scope: TurnScope,
  ws: Workspace,
  before: string,
  after: string,
): Promise<[string, string] | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-syntax-'));
  try {
    await writeFile(join(dir, 'before.py'), before);
    await writeFile(join(dir, 'after.py'), after);
    const confined = scope.rt.ctx.config.SANDBOX !== 'none';
    const at = confined ? INSIDE : dir;
    const got = await runOnCheckout(
      scope.rt.ctx.config,
      ws,
      ['python3', '-c', PY_CHECK, `${at}/before.py`, `${at}/after.py`],
      {
        writable: false,
        timeoutMs: 20_000,
        network: 'none',
        binds: confined ? [{ host: dir, inside: INSIDE, writable: false }] : [],
      },
    );
    if (!got.ok || got.result.exitCode !== 0) return undefined;
    const [was, now] = got.result.stdout.trim().split('\n');
    return was && now ? [was, now] : undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
