import { describe, expect, it } from 'vitest';
import { scratchReason } from '../../../src/executor/scratch-files.ts';

describe('issue 28: which new files commit_and_push warns about', () => {
  it.each([
    ['debug.log', '*.log'],
    ['out/run.tmp', '*.tmp'],
    ['src/app.ts.orig', '*.orig'],
    ['src/app.ts.rej', '*.rej'],
    ['notes.md~', '*~'],
    ['web/.DS_Store', '.DS_Store'],
    ['node_modules/left-pad/index.js', 'node_modules/'],
    ['pkg/__pycache__/m.cpython-312.pyc', '__pycache__/'],
    ['debug.py', 'a scratch name'],
    ['tmp_test.js', 'a scratch name'],
    ['scratch2.md', 'a scratch name'],
    ['repro.py', 'a scratch name'],
    ['reproduce_issue.js', 'a scratch name'],
  ])('%s: %s', (path, why) => {
    expect(scratchReason(path)).toBe(why);
  });

  it('a file over 1 MB is named for its size; ordinary source is not named', () => {
    expect(scratchReason('assets/data.bin', 2_000_000)).toBe('over 1 MB');
    for (const path of [
      'src/login.ts',
      'docs/guide.md',
      'src/debugger.ts',
      'templates/temple.html',
      '.log',
      'src/reproducer.ts',
    ])
      expect(scratchReason(path, 2_000)).toBeUndefined();
  });
});
