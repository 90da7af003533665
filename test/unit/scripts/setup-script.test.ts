import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
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
    // Issue 32: the machine's Node when it is 22.12 or later, else the Node 24 setup brought.
    expect(out).toMatch(/setup: node v\d+\.\d+\.\d+(: ok| is older than 22\.12: Node v24\.\d+\.\d+ is in )/);
    for (const tool of ['redis-server', 'bwrap', 'pasta', 'ip', 'nsenter', 'go', 'chromium']) {
      expect(out).toMatch(new RegExp(`setup: ${tool}: present`));
    }
    // Issue 16: Chinese glyphs for the zh-CN panel and its screenshots.
    expect(out).toMatch(/setup: CJK font: present \(.+\)/);
    // Emoji in the bot's messages and the panel's screenshots (issue 33), not boxes.
    expect(out).toMatch(/setup: emoji font: present \(.+\)/);
    expect(out).toContain('nothing to install');
    expect(code).toBe(0);
  });

  it('on a machine with only node, names every missing package and exits 1 without installing', async () => {
    await symlink(process.execPath, join(bin, 'node'));
    const { code, out } = check({ PATH: bin, CHROMIUM_PATH: join(bin, 'no-chromium') });
    expect(out).toContain(
      'PROBLEM missing: redis-server bubblewrap passt iproute2 util-linux golang-go chromium fonts-wqy-zenhei fonts-noto-color-emoji (run npm run setup)',
    );
    expect(out).not.toContain('installing');
    expect(code).toBe(1);
  });

  it('without Node >= 22.12 (and none brought into SETUP_NODE_DIR) it says so and exits 1', () => {
    const { code, out } = check({ PATH: '/nonexistent', SETUP_NODE_DIR: join(bin, 'no-node') });
    expect(out).toMatch(
      /PROBLEM node >= 22\.12 is needed \(found: none\); npm run setup brings Node v24\.\d+\.\d+/,
    );
    expect(code).toBe(1);
  });

  it('issue 32: a Node older than 22.12 is not ok, and the Node 24 setup brought is named with the PATH to use', async () => {
    // A stand-in for an old machine Node: answers v20.20.2 and fails the version test.
    const old = join(bin, 'old-node');
    await mkdir(old, { recursive: true });
    await writeFile(
      join(old, 'node'),
      '#!/bin/sh\n[ "$1" = --version ] && echo v20.20.2 && exit 0\nexit 1\n',
      { mode: 0o755 },
    );
    const brought = join(bin, 'brought');
    await mkdir(join(brought, 'bin'), { recursive: true });
    const version = readFileSync(fileURLToPath(new URL('../../../.nvmrc', import.meta.url)), 'utf8').trim();
    await writeFile(join(brought, 'bin/node'), `#!/bin/sh\necho v${version}\n`, { mode: 0o755 });
    const r = check({ PATH: `${old}:/usr/bin:/bin`, SETUP_NODE_DIR: brought });
    expect(r.out).toContain(
      `setup: node v20.20.2 is older than 22.12: Node v${version} is in ${brought}/bin; run export PATH="${brought}/bin:$PATH" before npm ci && npm test`,
    );
    expect(r.out).not.toMatch(/node v20\.20\.2: ok/);
  });
});
