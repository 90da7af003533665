import { lchown, mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SandboxUser } from '../sandbox/sandbox-user.ts';
import type { Confined } from './confine-path.ts';
import {
  type FileLimits,
  type FileProblem,
  problemWords,
  readRegular,
  scanRegular,
  writeRegular,
} from './open-regular.ts';

/** What `read_file`, `write_file` and `edit_file` handle: a model has no use for more. */
export const CHECKOUT_FILE_LIMITS: FileLimits = { capBytes: 16 * 1024 * 1024, timeoutMs: 10_000 };

type Path = Extract<Confined, { ok: true }>;
/** A read's refusal; `missing` when there is no such file (a writer may then create it). */
export type CheckoutRefusal = { ok: false; refusal: string; missing: boolean; tooLarge: boolean };
export type CheckoutText = { ok: true; text: string } | CheckoutRefusal;
export type CheckoutBytes = { ok: true; data: Buffer } | CheckoutRefusal;
export type CheckoutWrite = { ok: true } | { ok: false; refusal: string };

/**
 * A file of the checkout as text, for a path `confinePath` allowed: only a regular file, opened
 * without blocking (issue 31), up to `CHECKOUT_FILE_LIMITS`. A link inside the checkout (which
 * confinement checked) is followed to its target; the target itself is opened without following.
 */
export async function readCheckoutFile(p: Path, limits = CHECKOUT_FILE_LIMITS): Promise<CheckoutText> {
  const got = await readCheckoutBytes(p, limits);
  return got.ok ? { ok: true, text: got.data.toString('utf8') } : got;
}

/** The same file's bytes, for a reader that must tell text from binary (`read_file`). */
export async function readCheckoutBytes(p: Path, limits = CHECKOUT_FILE_LIMITS): Promise<CheckoutBytes> {
  const got = await readRegular(await target(p.abs), limits);
  if (got.ok) return got;
  return {
    ok: false,
    refusal: refusal(p.rel, got.problem),
    missing: got.problem.kind === 'missing',
    tooLarge: got.problem.kind === 'too_large',
  };
}

/**
 * Streams a file of the checkout too large to read whole (`read_file`'s pages of a big log), under
 * the same rules as `readCheckoutBytes` and its deadline; the answer is the bytes passed on.
 */
export async function scanCheckoutFile(
  p: Path,
  visit: (chunk: Buffer) => boolean,
  limits = CHECKOUT_FILE_LIMITS,
): Promise<{ ok: true; bytes: number; size: number } | CheckoutRefusal> {
  const got = await scanRegular(await target(p.abs), limits.timeoutMs, visit);
  if (got.ok) return got;
  return {
    ok: false,
    refusal: refusal(p.rel, got.problem),
    missing: got.problem.kind === 'missing',
    tooLarge: false,
  };
}

/**
 * Creates or replaces a file of the checkout, under the same rules as `readCheckoutFile`. With
 * `owner` (commands run as a uid of their own, issue 45) the file and any folder made for it are
 * that uid's, so the next command can change them.
 */
export async function writeCheckoutFile(
  p: Path,
  content: string,
  opts: { owner?: SandboxUser | undefined; limits?: FileLimits } = {},
): Promise<CheckoutWrite> {
  const { owner, limits = CHECKOUT_FILE_LIMITS } = opts;
  const made = await mkdir(dirname(p.abs), { recursive: true }).then(
    (first) => ({ first }),
    (err: NodeJS.ErrnoException) => ({ err }),
  );
  if ('err' in made) {
    if (made.err.code === 'EEXIST' || made.err.code === 'ENOTDIR')
      return { ok: false, refusal: `refused: a parent of ${p.rel} is not a folder` };
    throw made.err;
  }
  if (owner && made.first) await giveFolders(made.first, dirname(p.abs), owner);
  const got = await writeRegular(await target(p.abs), content, limits, owner);
  return got.ok ? got : { ok: false, refusal: refusal(p.rel, got.problem) };
}

/** The folders `mkdir -p` made, from the first down to `last`, given to `owner` (links never followed). */
async function giveFolders(first: string, last: string, owner: SandboxUser): Promise<void> {
  for (let d = last; ; d = dirname(d)) {
    await lchown(d, owner.uid, owner.gid);
    if (d === first || dirname(d) === d) return;
  }
}

/** Where a link of the checkout leads, or the path itself when it does not exist yet. */
const target = (abs: string) => realpath(abs).catch(() => abs);

/** The model's answer: what is wrong with the file, and what it may do instead. */
function refusal(rel: string, problem: FileProblem): string {
  if (problem.kind === 'missing') return `cannot read ${rel}: no such file`;
  const hint =
    problem.kind === 'not_regular'
      ? '; file tools open only regular files'
      : problem.kind === 'too_large'
        ? '; read_file pages it (offset, limit); change it with a command (sed -i)'
        : '';
  return `refused: ${rel} ${problemWords(problem)}${hint}`;
}
