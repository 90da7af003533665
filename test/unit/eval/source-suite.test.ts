import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_TASKS } from '../../../src/eval/cli.ts';
import { loadTasks, TaskYaml } from '../../../src/eval/task.ts';

const { tasks, errors, unavailable } = loadTasks(DEFAULT_TASKS);

/**
 * Issue 47 item 2: the suite's tasks from real repositories are source tasks — their task.yaml
 * alone, naming the repository, the fix commit and its test files; none of the repository's code
 * is in this project. Without clones (EVAL_SOURCES) they are listed as not available.
 */
describe('the suite’s source tasks', () => {
  const ids = unavailable.map((u) => u.taskId);

  it('are task.yaml alone, and not available without a clone', () => {
    expect(errors).toEqual([]);
    expect(ids.length).toBeGreaterThanOrEqual(10);
    for (const id of ids) expect(readdirSync(join(DEFAULT_TASKS, id)), id).toEqual(['task.yaml']);
    for (const u of unavailable)
      expect(u.reason).toBe(`not available: needs a clone of ${u.repository} (set EVAL_SOURCES)`);
    expect(tasks.some((t) => t.tests)).toBe(false);
  });

  it('name their origin and a page that shows the commit', () => {
    const specs = ids.map((id) =>
      TaskYaml.parse(parse(readFileSync(join(DEFAULT_TASKS, id, 'task.yaml'), 'utf8'))),
    );
    for (const s of specs) {
      expect(s.source?.url).toBe(`https://github.com/${s.source?.repository}/commit/${s.source?.commit}`);
      expect(s.tests?.length).toBeGreaterThan(0);
      expect(s.expect).toBe('change');
    }
    // A held-out share of them too.
    expect(specs.filter((s) => s.split === 'test').length * 3).toBeGreaterThanOrEqual(specs.length);
  });
});
