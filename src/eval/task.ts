import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { testFiles } from './lay-tests.ts';

/** Where a task's request comes from: a Feishu chat, a GitHub issue, or a comment on a pull request. */
export const EVAL_CHANNELS = ['feishu', 'github-issue', 'github-pr-comment'] as const;
export type EvalChannel = (typeof EVAL_CHANNELS)[number];
/** What a task must end in: a change that makes `check` pass, a question, or nothing changed. */
export const EVAL_EXPECTS = ['change', 'question', 'no-change'] as const;
/** Which split a task belongs to (issue 47): prompts are tuned on `dev`, `test` is held out. */
export const EVAL_SPLITS = ['dev', 'test'] as const;
export type EvalSplit = (typeof EVAL_SPLITS)[number];

const text = z.string().trim().min(1, 'a non-empty text');

/** A regular expression, matched case-insensitively; refused when it does not compile. */
const pattern = text.refine(compiles, 'a regular expression');

const followup = z
  .object({
    text,
    /** Where the later message comes from (the task's own channel when absent). */
    channel: z.enum(EVAL_CHANNELS).optional(),
    /**
     * Issue 47 item 5: a review-thread comment on the bot's pull request, on `path`; `patch` names
     * the task's file holding the part of solution.patch that answers it (the oracle pushes it
     * after the comment; --validate checks the hidden tests fail without it).
     */
    review: z
      .object({ path: text, patch: z.string().regex(/^[\w.-]+\.patch$/, 'a .patch file of the task') })
      .strict()
      .optional(),
    /** When it is sent: once the ticket settles (the default), or as soon as the request is acknowledged. */
    after: z.enum(['settled', 'acknowledged']).optional(),
  })
  .strict()
  .refine((f) => !(f.review && f.channel), {
    message: 'a review-thread comment is on the bot’s pull request: give it no channel',
  });

/** A follow-up that pauses the ticket (`/pause`) or lifts the pause (`/resume`), as a person writes them. */
export const pauseCommandOf = (f: { text: string }): 'pause' | 'resume' | undefined =>
  f.text.trim() === '/pause' ? 'pause' : f.text.trim() === '/resume' ? 'resume' : undefined;

/**
 * Where a real task comes from (issue 47, SWE-bench style): the public repository, the commit whose
 * change is the reference fix (the task starts at its parent), and a page that shows it.
 */
const source = z
  .object({
    repository: z.string().regex(/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/, 'owner/name'),
    commit: z.string().regex(/^[0-9a-f]{40}$/, 'a whole commit id (40 lower-case hex digits)'),
    url: z.url({ protocol: /^https$/ }).max(2048),
  })
  .strict();

/** A file's path in a repository: relative, `/`-separated, no `.`, `..` or `.git` part. */
const testPath = z
  .string()
  .max(1024)
  .refine(
    (p) =>
      !p.includes('\\') &&
      ![...p].some((c) => c.charCodeAt(0) < 32) &&
      p.split('/').every((part) => part !== '' && !/^(\.|\.\.|\.git)$/i.test(part)),
    'a relative path in the repository (a/b.txt), with no empty, ., .. or .git part',
  );

/** `task.yaml`: unknown keys are refused, so a misspelt `expect` is an error, not a silent default. */
export const TaskYaml = z
  .object({
    request: text,
    channel: z.enum(EVAL_CHANNELS),
    check: text,
    expect: z.enum(EVAL_EXPECTS).default('change'),
    followups: z.array(followup).default([]),
    ui: z.boolean().default(false),
    split: z.enum(EVAL_SPLITS),
    /**
     * What the bot must say to the person (issue 47): the answer of a no-change task, the question
     * of a question task. `says` are patterns its words must all match (case-insensitive);
     * `reference` is a right answer, which must match them (the oracle sends it).
     */
    answer: z
      .object({ reference: text, says: z.array(pattern).min(1) })
      .strict()
      .optional(),
    /** A task taken from a public repository's history names its origin. */
    source: source.optional(),
    /**
     * A source task (issue 47): its folder holds only task.yaml, and its repository, hidden tests
     * and reference fix are made from a local clone of `source` (`task-source.ts`); `tests` are
     * the fix commit's test files, by path in the repository.
     */
    tests: z.array(testPath).min(1).optional(),
    /**
     * A source task whose reference fix is the whole commit, its changes to `tests` included: the
     * oracle verifies with `check` on its own checkout, where a fix that changes what an old test
     * pinned fails the parent's tests (the hidden tests are laid over the pushed tree either way).
     */
    patch_has_tests: z.boolean().optional(),
  })
  .strict()
  .refine((t) => !t.tests || t.source, {
    message: 'tests: lists the test files of a source commit: name it (source: { repository, commit, url })',
    path: ['tests'],
  })
  .refine((t) => t.patch_has_tests === undefined || t.tests, {
    message: 'patch_has_tests is for a source task (tests: listed)',
    path: ['patch_has_tests'],
  })
  .refine((t) => t.expect === 'change' || t.answer !== undefined, {
    message: 'a question or no-change task names what its answer must say (answer: { reference, says })',
    path: ['answer'],
  })
  .refine((t) => pausesLifted(t.followups.map(pauseCommandOf)), {
    message: 'every /pause follow-up is followed by a /resume one (the pause task is graded until then)',
    path: ['followups'],
  })
  .refine((t) => !t.answer || unmatched(t.answer.says, t.answer.reference).length === 0, {
    message: 'answer.reference does not match every pattern in answer.says',
    path: ['answer', 'reference'],
  });

function pausesLifted(commands: ('pause' | 'resume' | undefined)[]): boolean {
  const said = commands.filter((c) => c !== undefined);
  return said.every((c, i) => c === (i % 2 === 0 ? 'pause' : 'resume')) && said.length % 2 === 0;
}

/** The patterns `words` does not match (case-insensitive); one that does not compile never matches. */
export function unmatched(says: string[], words: string): string[] {
  return says.filter((p) => !compiles(p) || !new RegExp(p, 'iu').test(words));
}

function compiles(p: string): boolean {
  try {
    new RegExp(p, 'iu');
    return true;
  } catch {
    return false;
  }
}

export type TaskSpec = z.infer<typeof TaskYaml>;

/**
 * A task's files at the start: the folder `repo/`, or `repo.bundle`, a git bundle whose HEAD is the
 * tree (a large repository ships as one compressed file; `task-repo.ts` unpacks it). Either way the
 * tree is committed fresh as the first commit; the bundle's history is not shown.
 */
export type TaskRepo = { kind: 'dir'; path: string } | { kind: 'bundle'; path: string };

export interface EvalTask extends TaskSpec {
  id: string;
  /** The task's folder. */
  dir: string;
  /** The repository's files at the start: `repo/` or `repo.bundle`. */
  repo: TaskRepo;
  /** `tests/`: the hidden grading files, laid over the tree before `check` (`lay-tests.ts`). */
  testsDir: string;
  /** `solution.patch`'s text; empty for a task that must change nothing. */
  patch: string;
}

/** A task folder that cannot be used, with the reason in words. */
export class EvalTaskError extends Error {
  override name = 'EvalTaskError' as const;
  readonly taskId: string;
  readonly reason: string;
  constructor(taskId: string, reason: string) {
    super(`task ${taskId}: ${reason}`);
    this.taskId = taskId;
    this.reason = reason;
  }
}

/**
 * A source task that cannot run here: no local clone of its repository was given (issue 47). It
 * is listed, never run, scored or counted as valid.
 */
export class EvalTaskUnavailable extends EvalTaskError {
  readonly repository: string;
  constructor(taskId: string, repository: string, where = 'set EVAL_SOURCES') {
    super(taskId, `not available: needs a clone of ${repository} (${where})`);
    this.repository = repository;
  }
}

/** A source task's files, made from a clone (`task-source.ts`): as `repo/`, `tests/` and `solution.patch` would be. */
export interface SourceFiles {
  repo: string;
  testsDir: string;
  patch: string;
}

/** A source task's files by task id; an error when they could not be made, undefined without a clone. */
export type SourceLookup = (id: string) => SourceFiles | EvalTaskError | undefined;

const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Reads and checks one task folder; throws `EvalTaskError` naming what is wrong. A source task's
 * files come from `sources` (made beforehand from a clone); without them it throws
 * `EvalTaskUnavailable`.
 */
export function loadTask(dir: string, sources?: SourceLookup): EvalTask {
  const id = basename(dir);
  const fail = (reason: string): never => {
    throw new EvalTaskError(id, reason);
  };
  if (!ID.test(id)) fail('the folder name must be lower-case letters, digits and dashes');
  const spec = readSpec(join(dir, 'task.yaml'), fail);
  const { repo, testsDir, patch } = spec.tests
    ? fromSource(id, dir, spec, sources, fail)
    : filesOf(dir, fail);
  for (const f of spec.followups)
    if (f.review && !readIfFile(join(dir, f.review.patch)).trim())
      fail(`${f.review.patch} is missing or empty (the part of solution.patch that answers the review)`);
  if (spec.expect === 'no-change') {
    if (patch.trim() !== '') fail('expect is no-change, so solution.patch must be absent or empty');
  } else if (patch.trim() === '') {
    fail(`solution.patch is missing or empty (expect: ${spec.expect} needs a reference change)`);
  }
  return { ...spec, id, dir, repo, testsDir, patch };
}

/** A task folder's own `repo/` (or `repo.bundle`), `tests/` and `solution.patch`. */
function filesOf(dir: string, fail: (reason: string) => never) {
  const repo = repoOf(dir, fail);
  const testsDir = join(dir, 'tests');
  if (!isDir(testsDir) || testFiles(testsDir).length === 0)
    fail('tests/ is missing or holds no file (the grading files, laid over the tree before check)');
  if (hasLink(testsDir)) fail('tests/ must hold only folders and files, no links');
  const patchPath = join(dir, 'solution.patch');
  const patch = existsSync(patchPath) ? readFileSync(patchPath, 'utf8') : '';
  return { repo, testsDir, patch };
}

/** A source task's files, made from its repository's clone; its folder holds none of its own. */
function fromSource(
  id: string,
  dir: string,
  spec: TaskSpec,
  sources: SourceLookup | undefined,
  fail: (reason: string) => never,
) {
  const own = ['repo', 'repo.bundle', 'tests', 'solution.patch'].filter(
    (f) => existsSync(join(dir, f)) || isLink(join(dir, f)),
  );
  if (own.length)
    fail(`a source task (tests: listed) is made from its repository's clone: remove ${own.join(', ')}`);
  const made = sources?.(id);
  if (made instanceof EvalTaskError) throw made;
  if (!made) throw new EvalTaskUnavailable(id, (spec.source as { repository: string }).repository);
  return { repo: { kind: 'dir' as const, path: made.repo }, testsDir: made.testsDir, patch: made.patch };
}

function repoOf(dir: string, fail: (reason: string) => never): TaskRepo {
  const repoDir = join(dir, 'repo');
  const bundle = join(dir, 'repo.bundle');
  const hasBundle = existsSync(bundle) || isLink(bundle);
  if (hasBundle && existsSync(repoDir)) fail('holds both repo/ and repo.bundle: keep one');
  if (hasBundle) {
    if (!lstatSync(bundle).isFile()) fail('repo.bundle must be a file (not a link or a folder)');
    if (!/^# v[23] git bundle\n/.test(head(bundle, 20)))
      fail('repo.bundle is not a git bundle (git bundle create repo.bundle HEAD)');
    return { kind: 'bundle', path: bundle };
  }
  if (!isDir(repoDir)) fail('repo/ is missing (the repository’s files at the start), and no repo.bundle');
  if (readdirSync(repoDir).length === 0) fail('repo/ is empty');
  if (existsSync(join(repoDir, '.git'))) fail('repo/ must not hold a .git folder (it is committed fresh)');
  return { kind: 'dir', path: repoDir };
}

/** The first `n` bytes of a file, as text. */
function head(path: string, n: number): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0)).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function readSpec(path: string, fail: (reason: string) => never): TaskSpec {
  if (!existsSync(path)) fail('task.yaml is missing');
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    fail(`task.yaml is not YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const parsed = TaskYaml.safeParse(raw ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
    fail(`task.yaml: ${issues.join('; ')}`);
  }
  return (parsed as { data: TaskSpec }).data;
}

/** A file's text, or '' when there is no such file. */
export function readIfFile(path: string): string {
  return existsSync(path) && lstatSync(path).isFile() ? readFileSync(path, 'utf8') : '';
}

function hasLink(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some(
    (e) => e.isSymbolicLink() || (e.isDirectory() && hasLink(join(dir, e.name))),
  );
}

function isDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

export interface LoadedTasks {
  tasks: EvalTask[];
  /** Folders that are not usable tasks, each with its reason. */
  errors: EvalTaskError[];
  /** Source tasks with no clone of their repository here: not run, not counted (issue 47). */
  unavailable: EvalTaskUnavailable[];
}

/** Every task folder under `root` (sorted by id), or only the ids in `only`; an unknown id is an error. */
export function loadTasks(root: string, only?: string[], sources?: SourceLookup): LoadedTasks {
  if (!isDir(root)) throw new Error(`no task folder at ${root}`);
  const ids = readdirSync(root)
    .filter((name) => isDir(join(root, name)))
    .sort();
  const wanted = only ?? ids;
  const tasks: EvalTask[] = [];
  const errors: EvalTaskError[] = [];
  const unavailable: EvalTaskUnavailable[] = [];
  for (const id of wanted) {
    if (!ids.includes(id)) {
      errors.push(new EvalTaskError(id, `no such task in ${root}`));
      continue;
    }
    try {
      tasks.push(loadTask(join(root, id), sources));
    } catch (err) {
      if (err instanceof EvalTaskUnavailable) unavailable.push(err);
      else if (err instanceof EvalTaskError) errors.push(err);
      else throw err;
    }
  }
  return { tasks, errors, unavailable };
}
