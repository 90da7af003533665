import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EvalTaskError, loadTask, loadTasks } from '../../../src/eval/task.ts';

const root = await mkdtemp(join(tmpdir(), 'eval-task-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const GOOD = 'request: Fix it.\nchannel: feishu\ncheck: make test\nsplit: dev\n';
const ANSWER = 'answer:\n  reference: It is fine as it is.\n  says: [fine]\n';
const PATCH = 'diff --git a/a b/a\n';

let n = 0;
/** A task folder with `task.yaml` (unless null), a `repo/` with one file (unless false), and a patch. */
async function taskDir(
  yaml: string | null,
  opts: { repo?: false | 'empty' | 'git'; patch?: string | null; id?: string; tests?: false | 'link' } = {},
) {
  const dir = join(root, opts.id ?? `t${n++}`);
  await mkdir(dir, { recursive: true });
  if (yaml !== null) await writeFile(join(dir, 'task.yaml'), yaml);
  if (opts.repo !== false) {
    await mkdir(join(dir, 'repo'), { recursive: true });
    if (opts.repo !== 'empty') await writeFile(join(dir, 'repo', 'a'), 'x\n');
    if (opts.repo === 'git') await mkdir(join(dir, 'repo', '.git'));
  }
  if (opts.tests !== false) {
    await mkdir(join(dir, 'tests', 'test'), { recursive: true });
    await writeFile(join(dir, 'tests', 'test', 'a.test.js'), 'hidden\n');
    if (opts.tests === 'link') await symlink('/etc/passwd', join(dir, 'tests', 'test', 'b.test.js'));
  }
  const patch = opts.patch === undefined ? PATCH : opts.patch;
  if (patch !== null) await writeFile(join(dir, 'solution.patch'), patch);
  return dir;
}

/** The reason `loadTask` gives for refusing the folder. */
function refusal(dir: string): string {
  try {
    loadTask(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(EvalTaskError);
    return (err as EvalTaskError).reason;
  }
  throw new Error('the task was accepted');
}

describe('eval task loader', () => {
  it('reads a task with its defaults: expect change, no follow-ups, not a UI task', async () => {
    const dir = await taskDir(GOOD, { id: 'good-task' });
    const task = loadTask(dir);
    expect(task).toMatchObject({
      id: 'good-task',
      request: 'Fix it.',
      channel: 'feishu',
      check: 'make test',
      expect: 'change',
      followups: [],
      ui: false,
      patch: PATCH,
      repo: { kind: 'dir', path: join(dir, 'repo') },
      testsDir: join(dir, 'tests'),
      split: 'dev',
    });
  });

  it('reads follow-ups with their channel, ui and expect', async () => {
    const yaml = `${GOOD}${ANSWER}expect: question\nui: true\nfollowups:\n  - text: The one in a.js\n  - text: Review nit\n    channel: github-pr-comment\n`;
    const task = loadTask(await taskDir(yaml));
    expect(task.expect).toBe('question');
    expect(task.ui).toBe(true);
    expect(task.followups).toEqual([
      { text: 'The one in a.js' },
      { text: 'Review nit', channel: 'github-pr-comment' },
    ]);
  });

  it('refuses a folder without task.yaml', async () => {
    expect(refusal(await taskDir(null))).toBe('task.yaml is missing');
  });

  it('refuses task.yaml that is not YAML, naming the parser error', async () => {
    expect(refusal(await taskDir('request: [unclosed\n'))).toMatch(/^task\.yaml is not YAML: /);
  });

  it('refuses an unknown channel, naming the field and the choices', async () => {
    const reason = refusal(await taskDir(GOOD.replace('feishu', 'slack')));
    expect(reason).toMatch(/^task\.yaml: channel: /);
    expect(reason).toContain('"feishu"|"github-issue"|"github-pr-comment"');
  });

  it('refuses a missing check and an empty request', async () => {
    expect(refusal(await taskDir('request: Fix it.\nchannel: feishu\nsplit: dev\n'))).toMatch(/check: /);
    expect(refusal(await taskDir('request: "  "\nchannel: feishu\ncheck: x\nsplit: dev\n'))).toBe(
      'task.yaml: request: a non-empty text',
    );
  });

  it('refuses an unknown key (a misspelt field is an error, not a silent default)', async () => {
    expect(refusal(await taskDir(`${GOOD}expcet: question\n`))).toMatch(/expcet/);
  });

  it('refuses a bad expect and a follow-up without text', async () => {
    expect(refusal(await taskDir(`${GOOD}expect: maybe\n`))).toMatch(/^task\.yaml: expect: /);
    expect(refusal(await taskDir(`${GOOD}followups:\n  - channel: feishu\n`))).toMatch(/followups\.0\.text/);
  });

  it('refuses a task without repo/, with an empty one, or with a .git inside', async () => {
    expect(refusal(await taskDir(GOOD, { repo: false }))).toMatch(/^repo\/ is missing/);
    expect(refusal(await taskDir(GOOD, { repo: 'empty' }))).toBe('repo/ is empty');
    expect(refusal(await taskDir(GOOD, { repo: 'git' }))).toMatch(/must not hold a \.git/);
  });

  it('refuses a change without solution.patch, and a no-change task with one', async () => {
    expect(refusal(await taskDir(GOOD, { patch: null }))).toMatch(/^solution\.patch is missing or empty/);
    expect(refusal(await taskDir(GOOD, { patch: '\n' }))).toMatch(/^solution\.patch is missing or empty/);
    expect(refusal(await taskDir(`${GOOD}${ANSWER}expect: no-change\n`))).toBe(
      'expect is no-change, so solution.patch must be absent or empty',
    );
    expect(loadTask(await taskDir(`${GOOD}${ANSWER}expect: no-change\n`, { patch: null })).patch).toBe('');
  });

  it('issue 47 item 5: a review-thread follow-up names its part of the patch, and a /pause is lifted by a /resume', async () => {
    const review = `${GOOD}followups:\n  - text: Handle 0.\n    review: { path: a, patch: review.patch }\n`;
    expect(refusal(await taskDir(review))).toBe(
      'review.patch is missing or empty (the part of solution.patch that answers the review)',
    );
    const dir = await taskDir(review);
    await writeFile(join(dir, 'review.patch'), PATCH);
    expect(loadTask(dir).followups).toEqual([
      { text: 'Handle 0.', review: { path: 'a', patch: 'review.patch' } },
    ]);
    expect(
      refusal(
        await taskDir(
          `${GOOD}followups:\n  - text: x\n    channel: feishu\n    review: { path: a, patch: r.patch }\n`,
        ),
      ),
    ).toMatch(/give it no channel/);
    const pause = `${GOOD}followups:\n  - text: /pause\n    after: acknowledged\n`;
    expect(refusal(await taskDir(pause))).toMatch(/every \/pause follow-up is followed by a \/resume/);
    expect(loadTask(await taskDir(`${pause}  - text: /resume\n`)).followups).toEqual([
      { text: '/pause', after: 'acknowledged' },
      { text: '/resume' },
    ]);
  });

  it('issue 47: refuses a task without hidden tests/ or with a link in it', async () => {
    expect(refusal(await taskDir(GOOD, { tests: false }))).toMatch(/^tests\/ is missing or holds no file/);
    expect(refusal(await taskDir(GOOD, { tests: 'link' }))).toBe(
      'tests/ must hold only folders and files, no links',
    );
  });

  it('issue 47: a split is required; a question or no-change task names its answer, and its reference must say it', async () => {
    expect(refusal(await taskDir(GOOD.replace('split: dev\n', '')))).toMatch(/^task\.yaml: split: /);
    expect(refusal(await taskDir(`${GOOD}split: later\n`.replace('split: dev\n', '')))).toMatch(/split: /);
    expect(loadTask(await taskDir(GOOD.replace('dev', 'test'))).split).toBe('test');
    expect(refusal(await taskDir(`${GOOD}expect: no-change\n`, { patch: null }))).toMatch(
      /^task\.yaml: answer: a question or no-change task names what its answer must say/,
    );
    const wrong = 'answer:\n  reference: It is broken.\n  says: [fine]\n';
    expect(refusal(await taskDir(`${GOOD}${wrong}expect: no-change\n`, { patch: null }))).toBe(
      'task.yaml: answer.reference: answer.reference does not match every pattern in answer.says',
    );
    const bad = 'answer:\n  reference: x\n  says: ["("]\n';
    expect(refusal(await taskDir(`${GOOD}${bad}expect: no-change\n`, { patch: null }))).toMatch(
      /answer\.says\.0: a regular expression/,
    );
  });

  it('refuses a folder name that is not an id', async () => {
    expect(refusal(await taskDir(GOOD, { id: 'Bad Name' }))).toMatch(/folder name/);
  });

  it('the error message names the task', async () => {
    const dir = await taskDir(null, { id: 'named-task' });
    expect(() => loadTask(dir)).toThrow('task named-task: task.yaml is missing');
  });

  it('loadTasks keeps the good ones, lists the bad ones, and calls an unknown --only id an error', () => {
    const { tasks, errors } = loadTasks(join(import.meta.dirname, '../../fixtures/eval/tasks'), [
      'fixed',
      'malformed',
      'no-such-task',
    ]);
    expect(tasks.map((t) => t.id)).toEqual(['fixed']);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^task malformed: task\.yaml: channel: /),
      expect.stringMatching(/^task no-such-task: no such task in /),
    ]);
  });
});
