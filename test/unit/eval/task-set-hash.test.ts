import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { taskSetHash } from '../../../src/eval/run-identity.ts';
import { loadTask } from '../../../src/eval/task.ts';

const root = mkdtempSync(join(tmpdir(), 'eval-hash-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Issue 47: meta.taskSetHash changes with anything asked, given or graded, and not with the order. */
describe('the task set hash', () => {
  it('changes when a hidden test changes, and not with the order the tasks come in', () => {
    const dir = join(root, 'fixed');
    cpSync(join(import.meta.dirname, '../../fixtures/eval/tasks/fixed'), dir, { recursive: true });
    const other = loadTask(join(import.meta.dirname, '../../fixtures/eval/tasks/unchanged'));
    const before = taskSetHash([loadTask(dir), other]);
    expect(taskSetHash([other, loadTask(dir)])).toBe(before);
    writeFileSync(join(dir, 'tests', 'grade.sh'), 'grep -qx fixed state.txt && true\n');
    expect(taskSetHash([loadTask(dir), other])).not.toBe(before);
  });
});
