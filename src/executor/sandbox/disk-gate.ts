import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { diskUse } from './disk-usage.ts';
import { overDiskCap } from './run-sandboxed.ts';
import { diskInodes, type SandboxSettings } from './sandbox-settings.ts';

/** What a command on a checkout over its cap is answered (issue 45), with the numbers filled in. */
const OVER_CAP_TEXT = (
  await readFile(fileURLToPath(new URL('../../../prompts/loop/disk-over-cap.md', import.meta.url)), 'utf8')
).trim();

interface CheckoutUse {
  /** The checkout folder's inode when measured: a checkout made again is measured again. */
  ino: number;
  bytes: number;
  inodes: number;
}

/** The last measure of each checkout this process ran a command on, by folder (issue 45). */
const lastUse = new Map<string, CheckoutUse>();

/** Notes what a writable command left in `dir` (the sandbox measured it once the command was over). */
export async function noteCheckoutUse(dir: string, use: { bytes: number; inodes: number }): Promise<void> {
  const st = await stat(dir).catch(() => undefined);
  if (st) lastUse.set(dir, { ino: st.ino, bytes: use.bytes, inodes: use.inodes });
}

/** The checkout's last measure, or a new one when this process has none for this folder. */
async function checkoutUse(dir: string): Promise<CheckoutUse | undefined> {
  const st = await stat(dir).catch(() => undefined);
  if (!st) return undefined;
  const known = lastUse.get(dir);
  if (known?.ino === st.ino) return known;
  const use = await diskUse([dir]);
  if (!use) return undefined;
  const measured = { ino: st.ino, bytes: use.bytes, inodes: use.inodes };
  lastUse.set(dir, measured);
  return measured;
}

/** A word of a plain `rm`: a path or an option, no shell syntax (globs expand to paths). */
const RM_WORD = /^[\w./*?@%+=:,~[\]-]+$/;

/**
 * Whether a `bash -c` command is a plain `rm` and nothing else: the only command that runs on a
 * checkout over its cap, since all it can do is delete.
 */
export function onlyDeletes(argv: readonly string[]): boolean {
  const [shell, flag, text, ...rest] = argv;
  if ((shell !== 'bash' && shell !== 'sh') || flag !== '-c' || text === undefined || rest.length)
    return false;
  const words = text.trim().split(/[ \t]+/);
  return words[0] === 'rm' && words.length > 1 && words.every((w) => RM_WORD.test(w));
}

const mb = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

/**
 * The disk cap enforced (issue 45): a command that may write a checkout whose last measure is over
 * its disk or inode cap is refused — commits and verifications included, which run in the sandbox
 * too — unless it only deletes (`onlyDeletes`). Returns the refusal, or undefined when it may run.
 */
export async function overCapRefusal(
  s: SandboxSettings,
  dir: string,
  argv: readonly string[],
): Promise<string | undefined> {
  const use = await checkoutUse(dir);
  if (!use || !overDiskCap(use, s) || onlyDeletes(argv)) return undefined;
  return OVER_CAP_TEXT.replace('{used_mb}', String(mb(use.bytes)))
    .replace('{files}', String(use.inodes))
    .replace('{cap_mb}', String(s.diskMb))
    .replace('{cap_files}', String(diskInodes(s)));
}
