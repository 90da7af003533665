import type { Hono } from 'hono';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { currentAbRun } from '../../eval/ab-run-store.ts';
import { startAbRun } from '../../eval/start-ab-run.ts';
import type { PromptDeps } from '../../prompts/deps.ts';
import { prepareSettings } from '../../prompts/prepare-settings.ts';
import { emptySettings } from '../../prompts/settings.ts';
import type { ApiRoutes } from '../app.ts';
import { readBody } from './read-body.ts';

const StartBody = z.union([
  z.object({ version: z.number().int().min(1) }).strict(),
  z.object({ draft: z.record(z.string(), z.unknown()) }).strict(),
]);

/**
 * The panel's "Evaluate" (issue 29): `POST /api/eval/ab` starts `npm run eval -- --prompts` with a
 * saved version (`{ version }`) or a draft (`{ draft }`, as PUT /api/prompts takes it) as a child
 * of this web process — 422 when no eval model is configured, 409 while a run is under way in any
 * web process; `GET /api/eval/ab` is the last run's state (null before any).
 */
export function evalAbRoutes(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'config' | 'log'>,
  deps: PromptDeps,
): ApiRoutes {
  return (api: Hono) => {
    api.post('/eval/ab', async (c) => {
      const body = await readBody(c, StartBody);
      refuseBadDraft(deps, body);
      const started = await startAbRun(
        ctx,
        'version' in body
          ? { kind: 'version', revision: body.version }
          : { kind: 'draft', settings: body.draft },
      );
      if ('code' in started)
        throw new HttpError(started.code === 'eval_running' ? 409 : 422, started.code, started.message);
      return c.json({ run: started }, 202);
    });

    api.get('/eval/ab', async (c) => c.json({ run: await currentAbRun(ctx) }));
  };
}

/**
 * A draft the run could not use is refused before anything starts, as a save would refuse it: a
 * 422 listing every problem (`PUT /api/prompts`'s answer). A saved version the product lacks is
 * the eval CLI's to refuse: the run fails at once, saying so.
 */
function refuseBadDraft(deps: PromptDeps, body: z.output<typeof StartBody>): void {
  if (!('draft' in body)) return;
  // The draft's base revision is the save's business, not a setting.
  const { baseRevision: _base, ...draft } = body.draft;
  const prepared = prepareSettings(draft, {
    builtins: deps.builtins,
    sizeCap: deps.sizeCap,
    saved: emptySettings(),
  });
  if (!prepared.ok) throw new HttpError(422, 'invalid', 'invalid', { errors: prepared.errors });
}
