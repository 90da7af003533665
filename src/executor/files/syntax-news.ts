import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { TurnScope } from '../turn-scope.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { jsonErrors, typeScriptErrors, yamlErrors } from './syntax-local.ts';
import { type SandboxedKind, sandboxedErrors } from './syntax-sandboxed.ts';

/** Which checker reads a file, by its extension (issue 48 item 1). */
const KINDS: Record<string, 'json' | 'yaml' | SandboxedKind> = {
  '.json': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.py': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.jsx': 'typescript',
  '.go': 'go',
};
/** The most errors one answer lists. */
const SHOWN = 5;

/**
 * The syntax errors the change brought in, in words for the model (issue 28, SWE-agent style;
 * issue 48: JavaScript, TypeScript, Go and YAML besides JSON and Python), or undefined. An error
 * the file already had before the change is not news; neither is a check that could not run.
 */
export async function syntaxNews(
  scope: TurnScope,
  ws: Workspace,
  rel: string,
  before: string | undefined,
  after: string,
): Promise<string | undefined> {
  const ext = extname(rel).toLowerCase();
  const errors = await bothErrors(scope, ws, ext, before ?? '', after);
  if (!errors) return undefined;
  const [was, now] = errors;
  const known = new Map<string, number>();
  for (const e of before === undefined ? [] : was) known.set(masked(e), (known.get(masked(e)) ?? 0) + 1);
  const fresh = now.filter((e) => {
    const left = known.get(masked(e)) ?? 0;
    known.set(masked(e), left - 1);
    return left <= 0;
  });
  if (!fresh.length) return undefined;
  const shown = fresh.slice(0, SHOWN).join('; ');
  const more = fresh.length > SHOWN ? ` and ${fresh.length - SHOWN} more` : '';
  const said = fresh.length === 1 ? shown : `${fresh.length} errors: ${shown}${more}`;
  return `syntax check: the change broke ${rel} — ${said}. Fix it before you go on.`;
}

/** An error but for where it is (an edit above moves it). */
const masked = (e: string) => e.replace(/\d+/g, '#');

async function bothErrors(
  scope: TurnScope,
  ws: Workspace,
  ext: string,
  before: string,
  after: string,
): Promise<[string[], string[]] | undefined> {
  const kind = KINDS[ext];
  if (kind === 'json') return [jsonErrors(before), jsonErrors(after)];
  if (kind === 'yaml') return [yamlErrors(before), yamlErrors(after)];
  if (kind === 'typescript' && !hasOwnTypeScript(ws)) {
    const [was, now] = await Promise.all([
      typeScriptErrors(before, `before${ext}`),
      typeScriptErrors(after, `after${ext}`),
    ]);
    return was && now ? [was, now] : undefined;
  }
  return kind ? sandboxedErrors(scope, ws, kind, ext, [before, after]) : undefined;
}

/**
 * Whether the checkout brings its own compiler, which then parses its files — in the sandbox,
 * since loading it runs the repository's code. Only a path is looked at here.
 */
const hasOwnTypeScript = (ws: Workspace) =>
  existsSync(join(ws.dir, 'node_modules', 'typescript', 'package.json'));
