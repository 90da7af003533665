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
 * The checkout's own TypeScript, in the sandbox (loading it runs the repository's code), read by
 * the one formatter both TypeScript checks use (`ts-syntax.cjs`, its path the first argument).
 */
export const TS_DRIVER = [
  "const fs = require('fs');",
  'const { tsSyntaxErrors } = require(process.argv[1]);',
  'let ts;',
  "try { ts = require(require.resolve('typescript', { paths: [process.cwd()] })); } catch { process.exit(3); }",
  'for (const f of process.argv.slice(2)) {',
  `  process.stdout.write('${MARK}\\n');`,
  "  for (const line of tsSyntaxErrors(ts, fs.readFileSync(f, 'utf8'), f)) process.stdout.write(line + '\\n');",
  '}',
].join('\n');
