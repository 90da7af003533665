import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinePath } from '../../../src/executor/workspace/confine-path.ts';

const GIT_REFUSED = '".git" is not open to tools';

describe('issue 31: every spelling of .git is refused like .git/config', () => {
  const checkout = mkdtempSync(join(tmpdir(), 'sy-confine-git-'));
  mkdirSync(join(checkout, '.git'));
  writeFileSync(join(checkout, '.git', 'config'), '[core]\n');
  mkdirSync(join(checkout, 'src'));
  symlinkSync('.git', join(checkout, 'g'));
  symlinkSync('../.git/config', join(checkout, 'src', 'conf'));

  it('issue 31: ./ prefixes, a/../, doubled slashes, other cases, nested .git and links into .git are all refused as .git; look-alikes stay open', async () => {
    // `.GIT` is `.git` on a case-insensitive file system (macOS, Windows); git itself refuses
    // every case of the name in a path, so nothing legitimate lives there.
    const spellings = [
      '.git/config',
      '././.git/config',
      'a/../.git/config',
      '.git//config',
      '.git',
      './.git',
      '.GIT/config',
      '.Git/HEAD',
      'src/.git/config',
      'g/config',
      'g/hooks/new-hook',
      'src/conf',
    ];
    const answers = await Promise.all(spellings.map((s) => confinePath(checkout, s)));
    expect(answers.map((a, i) => [spellings[i], a.ok ? 'allowed' : a.why])).toEqual(
      spellings.map((s) => [s, GIT_REFUSED]),
    );
    // Names that only resemble it stay open.
    for (const given of ['.gitignore', '.github/workflows/ci.yml', 'web.git/x', 'src/.gitkeep']) {
      expect(await confinePath(checkout, given), given).toMatchObject({ ok: true });
    }
  });
});
