import { describe, expect, it } from 'vitest';
import { verificationProblem } from '../../../src/executor/verification-command.ts';
import { changedTestsRun } from '../../../src/executor/verified-head.ts';

describe('issue 28: record_verification refuses commands whose exit code checks nothing', () => {
  it.each([
    'true',
    ':',
    'echo ok',
    'exit 0',
    'printf "%s" done',
    'test 1',
    '[ 1 ]',
    '# npm test',
    '   \n  ',
    'true && echo ok; exit 0',
    'cd src && ls',
    'FOO=1 true',
    'sh -c "exit 0"',
    'bash -lc \'echo "tests pass"\'',
    'eval true',
    'echo $(npm test)',
    'npm test || true',
    'npm test; echo done',
    'npm test 2>&1 | tail -50',
    'npm test &',
    'npm test & wait',
    'npm test; true && echo ok',
  ])('refused: %j', (cmd) => {
    expect(verificationProblem(cmd)).toBeDefined();
  });

  it.each([
    'npm test',
    'npm test && echo ok',
    'grep -q "||" src/login.ts',
    'cd web && npm test -- --run',
    'npx tsc --noEmit 2>&1',
    'set -o pipefail; npm test | tail -50',
    'set -e\nnpm test\necho done',
    'npm run lint && npm test',
    'pytest -q >/dev/null 2>&1',
    'bash -c "npm test"',
    'npm test | grep -q passing',
    'echo "a; true" && make check',
  ])('counted: %j', (cmd) => {
    expect(verificationProblem(cmd)).toBeUndefined();
  });

  it('names the part that decides the exit code', () => {
    expect(verificationProblem('npm test || true')).toContain('"true"');
    expect(verificationProblem('echo ok')).toContain('only no-op commands');
    expect(verificationProblem('# nothing')).toContain('only comments or whitespace');
  });

  it('reads hostile text in linear time (a loaded machine gets one retry)', () => {
    const shapes = ['"', '|&', 'a=b ', '-c ', 'x;', 'set -e;'].map((s) => s.repeat(65_000 / s.length));
    const time = (text: string) => {
      const t0 = performance.now();
      verificationProblem(text);
      verificationProblem(`sh -c ${text}`);
      return performance.now() - t0;
    };
    const slow = shapes.filter((text) => time(text) > 750 && time(text) > 750);
    expect(slow.map((t) => t.slice(0, 8))).toEqual([]);
  });
});

describe('issue 48: which of the changed tests a verifying command ran', () => {
  const tests = [
    { path: 'test/math.test.js', kind: 'modified' as const },
    { path: 'test/old.test.js', kind: 'deleted' as const },
  ];

  it('review: a command naming no file ran the modified tests, never a deleted one', () => {
    expect(changedTestsRun('node --test', tests)).toEqual(['test/math.test.js']);
    expect(changedTestsRun('node --test test/old.test.js', tests)).toEqual([]);
    expect(changedTestsRun('node --test test/math.test.js', tests)).toEqual(['test/math.test.js']);
  });
});
