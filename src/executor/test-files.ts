/** Folders that hold tests in most ecosystems. */
const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e', 'testdata']);
/** Names of test files: `x.test.ts`, `x.spec.js`, `x_test.go`, `test_x.py`, `x_test.py`, `XTest.java`. */
const TEST_NAME = /(\.|_)(test|spec)s?\.[a-z0-9]+$|^test_[^/]*\.py$|Tests?\.(java|kt|cs|scala)$/i;

/** Whether `path` is a test file by where it lives or how it is named (issue 48 item 2). */
export function isTestFile(path: string): boolean {
  const parts = path.split('/');
  const name = parts.at(-1) ?? path;
  return TEST_NAME.test(name) || parts.slice(0, -1).some((p) => TEST_DIRS.has(p.toLowerCase()));
}

/**
 * What marks a line as an assertion in the common test styles — node:assert and Chai
 * (`assert.equal(`, `assert(`), unittest (`self.assertEqual(`), pytest (`assert x`), Jest and
 * Vitest (`expect(`), Chai's `should`, Go's `t.Error`/`t.Fatal` — as git's extended regular
 * expressions (for `git grep -c`) and the same as ours (bounded: linear over any line). An import
 * of `assert` is not an assertion.
 */
const ASSERTIONS: [git: string, ours: RegExp][] = [
  ['assert[A-Za-z_]{0,20}[(]', /assert[A-Za-z_]{0,20}\(/],
  ['assert[.]', /assert\./],
  ['^[[:space:]]*assert[[:space:]]', /^\s{0,200}assert\s/],
  ['expect[(.]', /expect[(.]/],
  ['[.]should[.(]', /\.should[.(]/],
  ['t[.](Error|Fatal)', /t\.(Error|Fatal)/],
];

/** `git grep -E` arguments matching an assertion line. */
export const ASSERTION_GREP = ASSERTIONS.flatMap(([git]) => ['-e', git]);

export const isAssertionLine = (line: string) => ASSERTIONS.some(([, ours]) => ours.test(line));
