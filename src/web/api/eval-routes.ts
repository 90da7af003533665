import { resolve } from 'node:path';
import type { Hono } from 'hono';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { listRuns, type Read, readRun, readTrajectory } from '../../eval/read-results.ts';
import type { ApiRoutes } from '../app.ts';

/**
 * The eval results for the panel's Eval page (issue 29), read from `EVAL_RESULTS_DIR`:
 * `GET /api/eval/runs` (newest first, each with its summary, or why it cannot be read),
 * `GET /api/eval/runs/:run` (one run's records, and an A/B run's arms and comparison) and
 * `GET /api/eval/runs/:run/trajectories/:task/:n[?arm=published|candidate]` (a task run's kept
 * trajectory; in an A/B run, the arm's). A file that
 * fails its schema is a 422 with the reason; nothing outside the folder is ever read.
 */
export function evalRoutes(ctx: Pick<Ctx, 'config'>): ApiRoutes {
  const root = () => resolve(ctx.config.EVAL_RESULTS_DIR);
  return (api: Hono) => {
    api.get('/eval/runs', async (c) => {
      const { exists, runs } = await listRuns(root());
      return c.json({ dir: ctx.config.EVAL_RESULTS_DIR, exists, runs });
    });

    api.get('/eval/runs/:run', async (c) => {
      const run = c.req.param('run');
      const { meta, summary, arms, comparison, records } = answer(await readRun(root(), run), run);
      return c.json({ run, meta, summary, arms: arms ?? null, comparison: comparison ?? null, records });
    });

    api.get('/eval/runs/:run/trajectories/:task/:n', async (c) => {
      const { run, task } = c.req.param();
      const n = Number(c.req.param('n'));
      if (!Number.isInteger(n) || n < 1) throw new HttpError(400, 'bad_run', 'a run number is 1 or more');
      const arm = c.req.query('arm');
      if (arm !== undefined && arm !== 'published' && arm !== 'candidate')
        throw new HttpError(400, 'bad_arm', 'an arm is published or candidate');
      const { record, steps } = answer(
        await readTrajectory(root(), run, task, n, arm),
        `${run} ${task}#${n}${arm ? ` (${arm})` : ''}`,
      );
      return c.json({ run, record, steps });
    });
  };
}

function answer<T>(r: Read<T>, what: string): T {
  if (r.kind === 'ok') return r.value;
  if (r.kind === 'unreadable') throw new HttpError(422, 'unreadable', r.problem);
  if (r.kind === 'unfinished') throw new HttpError(404, 'unfinished', `${what} has no results.json yet`);
  throw new HttpError(404, 'not_found', `no eval results for ${what}`);
}
