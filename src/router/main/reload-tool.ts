import { z } from 'zod';
import type { Runtime } from '../../runtime.ts';
import { defineTool, toolOk } from '../../session/tool.ts';

/**
 * `orchestrator_reload` (R-G5): re-reads the bundled artifact folders for every worker process by
 * moving the registry revision; turns that start afterwards resolve at the new revision, running
 * ones keep theirs. Its own tool, so that reading (`orchestrator_read`) never changes anything.
 */
export function reloadTool(rt: Runtime) {
  return defineTool({
    name: 'orchestrator_reload',
    description:
      'Re-read the artifact folders (roles, skills, crews, workflows) for turns that start afterwards; running turns keep theirs. Answers the new registry revision and any file refused.',
    parameters: z.object({}),
    async run() {
      return toolOk(JSON.stringify(await rt.artifacts.reload(), null, 1));
    },
  });
}
