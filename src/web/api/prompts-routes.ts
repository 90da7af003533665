import type { Hono } from 'hono';
import { HttpError } from '../../errors/http-error.ts';
import {
  getPromptsView,
  getVersion,
  listVersions,
  type PromptDeps,
  restore,
  savePrompts,
} from '../../prompts/index.ts';
import type { ApiRoutes } from '../app.ts';
import { readObject } from './read-body.ts';
import { saveMetaOf } from './request-meta.ts';
import { revisionParam, saveResponse } from './save-response.ts';

/**
 * `/api/prompts*` (CONTRACT "HTTP", SPEC E and F): the view, saves with a base revision, the
 * immutable versions and restores. Validation and the conflict rule live in `src/prompts/`.
 */
export function promptsRoutes(deps: PromptDeps): ApiRoutes {
  return (api: Hono) => {
    api.get('/prompts', async (c) => c.json(await getPromptsView(deps)));

    api.put('/prompts', async (c) => {
      const body = await readObject(c);
      return saveResponse(c, await savePrompts(deps, body, saveMetaOf(c)));
    });

    api.get('/prompts/versions', async (c) => c.json({ versions: await listVersions(deps) }));

    api.get('/prompts/versions/:rev', async (c) => {
      const rev = revisionParam(c.req.param('rev'));
      const version = await getVersion(deps, rev);
      if (!version) throw new HttpError(404, 'not_found', `no revision ${rev}`, { revision: rev });
      return c.json(version);
    });

    api.post('/prompts/restore', async (c) => {
      const body = await readObject(c);
      return saveResponse(c, await restore(deps, body, saveMetaOf(c)));
    });
  };
}
