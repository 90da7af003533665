import { describe, expect, it } from 'vitest';
import { isCommitId } from '../../../src/executor/workspace/run-git.ts';

describe('isCommitId: what the workspace passes to git as a commit (R-H4)', () => {
  it('takes a whole lower-case SHA-1 and nothing that git would read as a ref, a prefix or an option', () => {
    const sha = 'a'.repeat(40);
    expect(isCommitId(sha)).toBe(true);
    expect(isCommitId('0123456789abcdef0123456789abcdef01234567')).toBe(true);
    for (const bad of [
      '',
      'HEAD',
      'main',
      sha.slice(1),
      `${sha}0`,
      sha.toUpperCase(),
      `${sha}\n`,
      `\n${sha}`,
      `--upload-pack=touch /tmp/x${sha}`,
      `${sha.slice(0, 39)}g`,
      `${sha}^{tree}`,
    ])
      expect(isCommitId(bad), JSON.stringify(bad)).toBe(false);
  });
});
