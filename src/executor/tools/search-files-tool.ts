import { z } from 'zod';
import { defineTool, type ToolResult, toolError, toolOk } from '../../session/tool.ts';
import { pathspecs } from '../files/pathspecs.ts';
import { capRows, countsSummary, matchRows, SEARCH_MAX_MATCHES } from '../files/search-answer.ts';
import { localGit } from '../sandbox/local-git.ts';
import type { TurnScope } from '../turn-scope.ts';
import { confinePath } from '../workspace/confine-path.ts';
import { inWorkspace } from '../workspace/work-gate.ts';
import type { Workspace } from '../workspace/workspace.ts';

const NO_PCRE = /USE_LIBPCRE|Perl-compatible regexes|not compiled with/i;
const PCRE_HINT =
  'the pattern is a Perl-compatible regular expression: escape ( ) [ ] { } . * + ? | \\ with a backslash to match them literally';

type Search = { engine: '-P' | '-E'; flags: string[]; pattern: string; specs: string[] };

/**
 * `search_files({ pattern, path?, glob?, ignore_case?, files_only? })` (issue 28): `git grep -P`
 * over tracked and new files, in the sandbox; capped, with per-file counts past the cap.
 */
export function searchFilesTool(scope: TurnScope) {
  return defineTool({
    name: 'search_files',
    description:
      'Search the checkout’s text files for a Perl-compatible regex (\\d, (?:…), lookarounds); answers file:line:text. path: a folder; glob: file names (*.ts, src/**/*.test.ts); files_only: names only.',
    parameters: z.object({
      pattern: z.string().min(1),
      path: z.string().optional(),
      glob: z.string().optional(),
      ignore_case: z.boolean().optional(),
      files_only: z.boolean().optional(),
    }),
    run: (args) =>
      inWorkspace(scope, async (ws, login) => {
        const p = await confinePath(ws.dir, args.path ?? '.');
        if (!p.ok) return toolError(`refused: ${p.why}`);
        const specs = pathspecs(p.rel, args.glob);
        if (!specs.ok) return toolError(`refused: ${specs.why}`);
        const flags = [...(args.ignore_case ? ['-i'] : []), ...(args.files_only ? ['-l'] : ['-n'])];
        const search: Search = { engine: '-P', flags, pattern: args.pattern, specs: specs.specs };
        return grep(scope, ws, login, search, args.files_only === true);
      }),
  });
}

async function grep(
  scope: TurnScope,
  ws: Workspace,
  login: string,
  s: Search,
  filesOnly: boolean,
): Promise<ToolResult> {
  const git = localGit(scope.rt.ctx.config, ws, login);
  const argv = (flags: string[]) => [
    'grep',
    '-z',
    '-I',
    '--untracked',
    '--no-color',
    s.engine,
    ...flags,
    '-e',
    s.pattern,
    '--',
    ...s.specs,
  ];
  const got = await git.raw(argv(s.flags), { timeoutMs: 60_000, capBytes: 400_000 });
  if (!got.ok) return toolError(got.refusal);
  const r = got.result;
  if (r.timedOut) return toolError('the search ran 60 s and was stopped; narrow the path or glob');
  const errors = r.output.replace(r.stdout, '').trim();
  if (r.exitCode === 1 && !errors) return toolOk('no matches');
  if (r.exitCode !== 0) {
    if (s.engine === '-P' && NO_PCRE.test(errors)) {
      const again = await grep(scope, ws, login, { ...s, engine: '-E' }, filesOnly);
      const note =
        'this git has no PCRE, so the pattern was read as an extended regex (no \\d, (?:…) or lookarounds)';
      return again.ok ? toolOk(`(${note})\n${again.content}`) : toolError(`${again.error} (${note})`);
    }
    if (/-e option/.test(errors))
      return toolError(`invalid pattern: ${errors.replace(/^fatal: /, '')} — ${PCRE_HINT}`);
    return toolError(`search failed: ${errors || `git grep exit ${r.exitCode}`}`);
  }
  const rows = filesOnly ? r.stdout.split(/[\0\n]/).filter(Boolean) : matchRows(r.stdout);
  const shown = capRows(rows);
  if (shown.length === rows.length && r.dropped === 0) return toolOk(shown.join('\n'));
  const counted = await git.raw(argv(['-c', ...s.flags.filter((f) => f !== '-n' && f !== '-l')]), {
    timeoutMs: 60_000,
    capBytes: 200_000,
  });
  const summary =
    counted.ok && counted.result.exitCode === 0 ? countsSummary(counted.result.stdout) : undefined;
  const what = filesOnly ? 'files' : 'matches';
  const total = summary ? (filesOnly ? summary.files : summary.total) : `over ${SEARCH_MAX_MATCHES}`;
  const where = summary ? ` in ${summary.files} files` : '';
  const perFile = summary && !filesOnly ? `; matches per file:\n${summary.lines.join('\n')}` : '';
  return toolOk(
    `${shown.join('\n')}\n(showing ${shown.length} of ${total} ${what}${where}: narrow the pattern or path${perFile})`,
  );
}
