import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../../src/eval/results-file.ts';
import type { TrajectoryFile } from '../../../src/eval/trajectory-file.ts';
import { oracleRunFolder } from './oracle-folder.ts';

/**
 * Issue 29: each task run's trajectory is kept with the run's results — the steps the runner
 * scored, written into the run's folder before the task's product and its keys are gone — and
 * `results.json` stays the index, its record naming the file.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('eval trajectories beside results.json (issue 29)', () => {
  it('writes each task run’s trajectory into the run folder and names it in its record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-trajectories-'));
    dirs.push(dir);
    const { folder } = await oracleRunFolder(dir, ['js-slugify']);
    const results = JSON.parse(readFileSync(join(folder, 'results.json'), 'utf8')) as ResultsFile;
    const [r] = results.records;
    if (!r) throw new Error('no record');
    expect(r).toMatchObject({
      id: 'js-slugify',
      run: 1,
      resolved: true,
      trajectory: 'trajectories/js-slugify-1.json',
    });
    // The index holds no steps: they are in the file it names.
    expect(r).not.toHaveProperty('steps');
    const file = JSON.parse(readFileSync(join(folder, r.trajectory as string), 'utf8')) as TrajectoryFile;
    expect(file).toMatchObject({ task: 'js-slugify', run: 1, ticket: r.ticket });
    // The same steps the record's metrics were counted from.
    const models = file.steps.filter((s) => s.kind === 'model');
    expect(models).toHaveLength(r.modelRequests);
    expect(models.reduce((n, s) => n + (s.usage?.promptTokens ?? 0), 0)).toBe(r.promptTokens);
    expect(models.reduce((n, s) => n + (s.usage?.completionTokens ?? 0), 0)).toBe(r.completionTokens);
    const tools = file.steps.flatMap((s) => (s.kind === 'tool' && s.ok ? [s.name] : []));
    expect(tools).toEqual(expect.arrayContaining(['reply', 'edit_file', 'commit_and_push', 'report']));
    // The acknowledgement carries its delivery, as the panel's ticket page shows it.
    const ack = file.steps.find((s) => s.kind === 'tool' && s.name === 'reply');
    expect(ack).toMatchObject({ message: { to: expect.any(String) } });
  }, 300_000);
});
