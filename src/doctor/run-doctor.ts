import { checkChatRepos } from './check-chat-repos.ts';
import { checkFeishu } from './check-feishu.ts';
import { checkGitHub } from './check-github.ts';
import { checkModel } from './check-model.ts';
import { checkRedis } from './check-redis.ts';
import { checkRedisAuth } from './check-redis-auth.ts';
import { checkRedisMemory } from './check-redis-memory.ts';
import { checkSandbox } from './check-sandbox.ts';
import { checkWorkspace } from './check-workspace.ts';
import type { DoctorDeps } from './doctor-deps.ts';
import { type Finding, ok, problem } from './finding.ts';
import { withTimeout } from './with-timeout.ts';

/**
 * Every check at once (each bounded by its own time-outs), in a fixed order for the report. A
 * check that throws is itself a problem, never a crash of the doctor.
 */
export async function runDoctor(deps: DoctorDeps): Promise<Finding[]> {
  const { config, timeoutMs, say } = deps;
  const guarded = (name: string, work: () => Promise<Finding[]>) =>
    work().catch((err: unknown) => [
      problem(name, say('run.check-failed', { error: (err as Error).message }), say('run.check-failed.fix')),
    ]);
  const results = await Promise.all([
    guarded('model', () =>
      // Issue 32: without a key nothing is ever answered: a problem, whether or not the round trip runs.
      !config.LLM_API_KEY
        ? Promise.resolve([problem('model', say('model.off'), say('model.off.fix'))])
        : deps.modelRoundTrip
          ? checkModel(config, deps.models, timeoutMs, say)
          : Promise.resolve([ok('model', say('model.skipped'))]),
    ),
    guarded('redis', () => withTimeout(checkRedis(deps.store, say, config.DEMO), timeoutMs, 'redis')),
    guarded('redis', () => withTimeout(checkRedisAuth(config, say), timeoutMs, 'redis')),
    guarded('redis', () => withTimeout(checkRedisMemory(config, deps.store, say), timeoutMs, 'redis')),
    guarded('feishu', () => checkFeishu(config, timeoutMs, say)),
    guarded('feishu', () =>
      withTimeout(checkChatRepos(config, deps.store, say), timeoutMs, 'chat repositories'),
    ),
    guarded('github', () => checkGitHub(config, timeoutMs, say)),
    guarded('workspace', () => checkWorkspace(config, say)),
    guarded('sandbox', () => withTimeout(checkSandbox(config, say), timeoutMs, 'sandbox')),
  ]);
  return results.flat();
}
