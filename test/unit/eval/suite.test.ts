import { describe, expect, it } from 'vitest';
import { DEFAULT_TASKS } from '../../../src/eval/cli.ts';
import { loadTasks } from '../../../src/eval/task.ts';
import { alternativePatches } from '../../../src/eval/task-patches.ts';

const { tasks, errors } = loadTasks(DEFAULT_TASKS);
const files = (patch: string) => patch.match(/^diff --git /gm)?.length ?? 0;
const han = /\p{Script=Han}/u;

/** What the suite in eval/tasks must cover (issue 29); `npm run eval -- --validate` proves each task. */
describe('the eval suite', () => {
  it('has at least 24 tasks and every one loads', () => {
    expect(errors.map((e) => e.message)).toEqual([]);
    expect(tasks.length).toBeGreaterThanOrEqual(24);
  });

  it('covers JavaScript, Python and Go', () => {
    const kinds = (check: RegExp) => tasks.filter((t) => check.test(t.check)).length;
    expect(kinds(/^node --test/)).toBeGreaterThan(0);
    expect(kinds(/^python3 /)).toBeGreaterThan(0);
    expect(kinds(/^go test /)).toBeGreaterThan(0);
  });

  it('has a UI task, a question, a no-change and a review follow-up', () => {
    expect(tasks.some((t) => t.ui)).toBe(true);
    expect(tasks.some((t) => t.expect === 'question' && t.followups.length > 0)).toBe(true);
    expect(tasks.some((t) => t.expect === 'no-change')).toBe(true);
    expect(tasks.some((t) => t.followups.some((f) => f.review))).toBe(true);
  });

  it('issue 47: review follow-ups are review-thread comments, and a UI task names another correct fix', () => {
    expect(tasks.filter((t) => t.followups.some((f) => f.review)).length).toBeGreaterThanOrEqual(3);
    expect(tasks.some((t) => t.followups.some((f) => f.channel === 'github-pr-comment'))).toBe(false);
    for (const t of tasks.filter((t) => t.ui)) expect(alternativePatches(t).length, t.id).toBeGreaterThan(0);
  });

  it('comes from every channel, in Chinese and in English', () => {
    expect(new Set(tasks.map((t) => t.channel))).toEqual(
      new Set(['feishu', 'github-issue', 'github-pr-comment']),
    );
    expect(tasks.some((t) => han.test(t.request))).toBe(true);
    expect(tasks.some((t) => !han.test(t.request))).toBe(true);
  });

  it('has at least 6 tasks whose reference change touches more than one file', () => {
    expect(tasks.filter((t) => files(t.patch) > 1).length).toBeGreaterThanOrEqual(6);
  });

  it('issue 47: holds out at least a third as the test split, and keeps every grading file hidden in tests/', () => {
    const test = tasks.filter((t) => t.split === 'test');
    expect(test.length * 3).toBeGreaterThanOrEqual(tasks.length);
    expect(tasks.filter((t) => t.split === 'dev').length).toBeGreaterThan(0);
    for (const t of tasks) expect(t.testsDir, t.id).toBe(`${t.dir}/tests`);
  });
});
