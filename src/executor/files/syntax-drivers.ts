/**
 * The programs that check a file's syntax in the sandbox (issue 48 item 1), one section per file
 * after a `SECTION` line. Each only parses: nothing of the checked file runs, and none writes a
 * file (no .pyc, no compiled output). A missing checker exits 3: no check, no news.
 */
export const SECTION = '@@switchyard-syntax@@\n';
const MARK = SECTION.trim();

/** ast.parse, the first error as `line N: message`. */
export const PY_DRIVER = [
  'import ast, sys',
  'for f in sys.argv[1:]:',
  `    print('${MARK}')`,
  '    try:',
  "        ast.parse(open(f, encoding='utf-8', errors='replace').read(), f)",
  '    except SyntaxError as e:',
  "        print('line %s: %s' % (e.lineno, e.msg))",
  '    except Exception as e:',
  "        print('line 0: %s' % e)",
].join('\n');

/**
 * `node --check` from standard input, whose type is said by a flag: the file's name and folder
 * decide nothing. The caller names a `.js` file `.mjs` when it reads like a module.
 */
export const JS_DRIVER = [
  'command -v node >/dev/null || exit 3',
  'for f; do',
  `  echo '${MARK}'`,
  '  case "$f" in',
  '    *.mjs) node --input-type=module --check - < "$f" 2>&1 ;;',
  '    *) node --input-type=commonjs --check - < "$f" 2>&1 ;;',
  '  esac',
  'done',
  'exit 0',
].join('\n');

/** gofmt -e: every error on stderr; the formatted text (stdout) is thrown away. */
export const GO_DRIVER = [
  'command -v gofmt >/dev/null || exit 3',
  'for f; do',
  `  echo '${MARK}'`,
  '  gofmt -e "$f" 2>&1 >/dev/null',
  'done',
  'exit 0',
].join('\n');

/**
 * The checkout's own TypeScript, in the sandbox (loading it runs the repository's code):
 * `transpileModule` reports syntactic diagnostics only, no types, so no other file is read.
 */
export const TS_DRIVER = [
  "const fs = require('fs');",
  'let ts;',
  "try { ts = require(require.resolve('typescript', { paths: [process.cwd()] })); } catch { process.exit(3); }",
  'for (const f of process.argv.slice(1)) {',
  `  process.stdout.write('${MARK}\\n');`,
  "  const r = ts.transpileModule(fs.readFileSync(f, 'utf8'), { fileName: f, reportDiagnostics: true, compilerOptions: { jsx: 1 } });",
  '  for (const d of (r.diagnostics || []).slice(0, 20)) {',
  '    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;',
  "    process.stdout.write('line ' + line + ': ' + ts.flattenDiagnosticMessageText(d.messageText, ' ').split('\\n').join(' ') + '\\n');",
  '  }',
  '}',
].join('\n');
