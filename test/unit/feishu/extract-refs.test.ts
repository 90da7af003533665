import { describe, expect, it } from 'vitest';
import { extractTextRefs } from '../../../src/cards/extract-refs.ts';

describe('extractTextRefs', () => {
  it('R-A3: GitHub PR and issue URLs become pr and issue refs, trailing punctuation dropped', () => {
    expect(
      extractTextRefs('see https://github.com/acme/app/pull/12. and (https://github.com/acme/app/issues/7)'),
    ).toEqual([
      { type: 'pr', repo: 'acme/app', number: 12 },
      { type: 'issue', repo: 'acme/app', number: 7 },
    ]);
  });

  it('R-A3: owner/name#123 is a reference; #123 only with a default repository', () => {
    expect(extractTextRefs('fix acme/app#3 and #4')).toEqual([
      { type: 'issue', repo: 'acme/app', number: 3 },
    ]);
    expect(extractTextRefs('fix acme/app#3 and #4', 'acme/web')).toEqual([
      { type: 'issue', repo: 'acme/app', number: 3 },
      { type: 'issue', repo: 'acme/web', number: 4 },
    ]);
  });

  it('R-A3: commit SHAs count only inside commit URLs', () => {
    expect(extractTextRefs('deadbeef1234 looks like hex')).toEqual([]);
    expect(
      extractTextRefs(
        'https://github.com/acme/app/commit/DEADBEEF1234 https://github.com/acme/app/pull/9/commits/abcdef0',
      ),
    ).toEqual([
      { type: 'commit', sha: 'deadbeef1234' },
      { type: 'pr', repo: 'acme/app', number: 9 },
      { type: 'commit', sha: 'abcdef0' },
    ]);
  });

  it('R-A3: other URLs stay url refs, a URL fragment is not shorthand, duplicates collapse', () => {
    expect(extractTextRefs('https://example.com/a#12 https://example.com/a#12 #L5 x#9', 'acme/app')).toEqual([
      { type: 'url', url: 'https://example.com/a#12' },
    ]);
  });

  it('R-A3: branch URLs become branch refs; GHES hosts are opt-in', () => {
    expect(extractTextRefs('https://github.com/acme/app/tree/feat/x')).toEqual([
      { type: 'branch', repo: 'acme/app', name: 'feat/x' },
    ]);
    expect(
      extractTextRefs('https://git.corp/acme/app/pull/2', undefined, { githubHosts: ['git.corp'] }),
    ).toEqual([{ type: 'pr', repo: 'acme/app', number: 2 }]);
  });

  it('R-A3: text in Chinese punctuation keeps the URL clean', () => {
    expect(extractTextRefs('请看https://github.com/acme/app/pull/5，谢谢')).toEqual([
      { type: 'pr', repo: 'acme/app', number: 5 },
    ]);
  });
});
