import type { Hono } from 'hono';
import { getPolicy, type PromptDeps, savePolicy } from '../../prompts/index.ts';
import type { ApiRoutes } from '../app.ts';
import { readObject } from './read-body.ts';
import { saveMetaOf } from './request-meta.ts';
import { saveResponse } from './save-response.ts';

/**
 * `GET`/`PUT /api/policy` (R-B8, R-E9): accept mode and rules, versioned like the prompts; a stale
 * `baseRevision` is a 409 and writes nothing.
 */
export function policyRoutes(deps: Pick<PromptDeps, 'redis' | 'keys' | 'now'>): ApiRoutes {
  return (api: Hono) => {
    api.get('/policy', async (c) => c.json(await getPolicy(deps)));

    api.put('/policy', async (c) => {
      const body = await readObject(c);
      return saveResponse(c, await savePolicy(deps, body, saveMetaOf(c)));
    });
  };
}
