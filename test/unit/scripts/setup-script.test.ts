import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../../scripts/setup.sh', import.meta.url));
const bin = await mkdtemp(join(tmpdir(), 'setup-bin-'));
afterAll(() => rm(bin, { recursive: true, force: true }));

const check = (env: Record<string, string>) => {
  const r = spawnSync('/bin/bash', [script, '--check'], { env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
};

/** `npm run setup -- --check` (issue 16): reports what `npm test` needs; installs nothing. */
describe('scripts/setup.sh --check', () => {
  it('on this machine (the CI image has everything) reports each tool present and exits 0', () => {
    const { code, out } = check({ PATH: process.env.PATH ?? '' });
    expect(out).toMatch(/setup: node v\d+\.\d+\.\d+: ok/);
    for (const tool of ['redis-server', 'bwrap', 'pasta', 'ip', 'nsenter', 'chromium']) {
      expect(out).toMatch(new RegExp(`setup: ${tool}: present`));
    }
    // Issue 16: Chinese glyphs for the zh-CN panel and its screenshots.
    expect(out).toMatch(/setup: CJK font: present \(.+\)/);
    expect(out).toContain('nothing to install');
    expect(code).toBe(0);
  });

  it('on a machine with only node, names every missing package and exits 1 without installing', async () => {
    await symlink(process.execPath, join(bin, 'node'));
    const { code, out } = check({ PATH: bin, CHROMIUM_PATH: join(bin, 'no-chromium') });
    expect(out).toContain(
      'PROBLEM missing: redis-server bubblewrap passt iproute2 util-linux chromium fonts-wqy-zenhei (run npm run setup)',
    );
    expect(out).not.toContain('installing');
    expect(code).toBe(1);
  });

  it('without Node >= 20.12 it says so and exits 1', () => {
    const { code, out } = check({ PATH: '/nonexistent' });
    expect(out).toMatch(/PROBLEM node >= 20\.12 is needed \(found: none\)/);
    expect(code).toBe(1);
  });
});
