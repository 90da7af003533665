import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What of `/etc` a command sees: name resolution, certificates, the dynamic loader and the
 * language runtimes' own settings. An allow-list, not a deny-list, so a secret some package drops
 * into `/etc` later (`shadow`, `ssh/` host keys, a database's password file) stays out (R-H3).
 */
const ETC_ALLOWED = [
  'alternatives',
  'bash.bashrc',
  'ca-certificates',
  'ca-certificates.conf',
  // Issue 15: the screenshot tool's Chromium (Debian's launcher reads its flags there) and fonts.
  'chromium',
  'chromium.d',
  'debian_version',
  'fonts',
  'gai.conf',
  'group',
  'host.conf',
  'hostname',
  'hosts',
  'inputrc',
  'java-17-openjdk',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'locale.alias',
  'localtime',
  'mime.types',
  'nsswitch.conf',
  'os-release',
  'passwd',
  'perl',
  'profile',
  'profile.d',
  'protocols',
  'python3',
  'python3.11',
  'resolv.conf',
  'services',
  'ssl',
  'timezone',
];

/** resolv.conf and hosts are often links into /run (systemd-resolved), absent in the sandbox. */
const DEREFERENCED = new Set(['resolv.conf', 'hosts', 'hostname']);
const PRIVATE_KEYS = '/etc/ssl/private';

let etc: string | undefined;

/**
 * The allowed part of `/etc` as one folder, bound read-only over the sandbox's `/etc`: symlinks
 * kept as links, the host's TLS private keys left out. It is made once per machine and user for
 * each state of the host's `/etc` and shared by every process: copying its 800-odd entries cost each
 * process 0.2 s of CPU, and a killed process left its copy behind. A change to the host's `/etc`
 * reaches the sandboxes of processes started after it.
 */
export function etcSnapshot(): string {
  // Made again if it went (a /tmp cleaner, or another process dropping a copy long unused).
  if (!etc || !existsSync(etc)) etc = sharedSnapshot() ?? privateSnapshot();
  return etc;
}

/**
 * The folders above a copy let other users through without listing them (0711): a command run
 * as a uid of its own (issue 45) is bound this folder by path, so bwrap, already that uid, walks
 * to it. What is in the copy is a world-readable part of `/etc`.
 */
const PASSAGE = 0o711;

/**
 * `<tmp>/switchyard-etc-user-<uid>/<hash of what is copied>/etc`, made when missing. Only where
 * that folder is this user's alone (not a link, nobody else may list or change it): else
 * `undefined`, and the process makes a copy of its own, since another user's folder could hold
 * any `/etc` at all.
 */
function sharedSnapshot(): string | undefined {
  const uid = process.getuid?.() ?? 0;
  const base = join(tmpdir(), `switchyard-etc-user-${uid}`);
  try {
    mkdirSync(base, { mode: PASSAGE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  const own = lstatSync(base);
  if (!own.isDirectory() || own.uid !== uid || (own.mode & 0o066) !== 0) return undefined;
  // A folder an earlier release made 0700.
  if ((own.mode & 0o777) !== PASSAGE) chmodSync(base, PASSAGE);
  const made = join(base, stateOfEtc());
  const dir = join(made, 'etc');
  if (existsSync(dir)) {
    if ((statSync(made).mode & 0o777) !== PASSAGE) chmodSync(made, PASSAGE);
    return dir;
  }
  dropOld(base);
  // Built aside and renamed into place (over an emptied folder too), so no process ever binds a
  // half-made copy.
  const building = mkdtempSync(join(base, 'building-'));
  copyEtc(join(building, 'etc'));
  chmodSync(building, PASSAGE);
  try {
    renameSync(building, made);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    // Another process made it first; a folder holding something else leaves this one to its own copy.
    if (!existsSync(dir)) return undefined;
  }
  return dir;
}

/** A copy of this process's own, removed at its exit. */
function privateSnapshot(): string {
  const root = mkdtempSync(join(tmpdir(), 'switchyard-etc-'));
  chmodSync(root, PASSAGE);
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  copyEtc(join(root, 'etc'));
  return join(root, 'etc');
}

function copyEtc(dir: string): void {
  mkdirSync(dir);
  for (const name of ETC_ALLOWED) {
    const src = `/etc/${name}`;
    if (!existsSync(src)) continue;
    if (DEREFERENCED.has(name)) copyFileSync(src, join(dir, name));
    else
      cpSync(src, join(dir, name), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (from) => !from.startsWith(PRIVATE_KEYS),
      });
  }
}

/**
 * A hash of every entry a copy would hold: its path, type, mode, size, change time and, for a
 * link, its target. Any change to one of them names another copy.
 */
function stateOfEtc(): string {
  const hash = createHash('sha256');
  const walk = (path: string, follow: boolean) => {
    if (path.startsWith(PRIVATE_KEYS)) return;
    const s = follow ? statSync(path, { throwIfNoEntry: false }) : lstatSync(path, { throwIfNoEntry: false });
    if (!s) return;
    const link = s.isSymbolicLink() ? readlinkSync(path) : '';
    hash.update(`${path}\0${s.mode}\0${s.size}\0${s.ctimeMs}\0${s.mtimeMs}\0${link}\n`);
    if (s.isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name), false);
  };
  for (const name of ETC_ALLOWED) walk(`/etc/${name}`, DEREFERENCED.has(name));
  return hash.digest('hex').slice(0, 32);
}

/**
 * Copies a killed process was still building (ten minutes is far past any copy's time), and
 * copies of earlier states of `/etc` made over a week ago: a process still using one makes the
 * current state's copy at its next command.
 */
function dropOld(base: string): void {
  const now = Date.now();
  for (const name of readdirSync(base)) {
    const path = join(base, name);
    const age = now - (lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? now);
    if (age > (name.startsWith('building-') ? 10 * 60_000 : 7 * 24 * 3_600_000))
      rmSync(path, { recursive: true, force: true });
  }
}
