import type { SystemPrompt } from '../session/turn-run.ts';
import { assembleExecutor, assembleMain } from './assemble.ts';
import type { PromptDeps } from './deps.ts';
import { cutToOffered } from './offered-tools.ts';
import type { Skill } from './parse-skill.ts';
import type { PromptReader } from './reader.ts';

export type SystemPromptRequest =
  | {
      role: 'main';
      sessionId: string;
      environment: Readonly<Record<string, string>>;
      /** The tools this session is offered: text naming others is cut (R-G4). */
      tools?: readonly string[];
    }
  | {
      role: 'executor';
      sessionId: string;
      environment: Readonly<Record<string, string>>;
      agentsMd?: string | null;
      inferredRuleIds?: readonly string[];
      /** The tools this turn is offered (profile and topology): text naming others is cut (R-G4). */
      tools?: readonly string[];
      /** The turn's crew artifacts (issue 7). */
      artifacts?: {
        role: { name: string; body: string };
        workflow?: { name: string; stages: readonly string[]; body: string };
        /** R-G2: the skills to show, given the team's skills as saved at this request (R-F3). */
        composeSkills: (team: readonly Skill[]) => readonly Skill[];
      };
    };

/** The session loop's `SystemPrompt`, and the policy revision it was assembled under. */
export type BuiltSystemPrompt = SystemPrompt & { policyRevision: number };

/**
 * The system prompt for one model request: reads the latest settings (one Redis round trip,
 * which also records the revision on the session, R-F3) and assembles them in R-E7 order. Call
 * it before every model request, later steps of the same turn included.
 */
export async function buildSystemPrompt(
  deps: Pick<PromptDeps, 'builtins'>,
  reader: PromptReader,
  req: SystemPromptRequest,
): Promise<BuiltSystemPrompt> {
  const snap = await reader.read(req.sessionId);
  const base = { builtins: deps.builtins, settings: snap.prompts.config, policy: snap.policy };
  const text =
    req.role === 'main'
      ? assembleMain({ ...base, environment: req.environment })
      : assembleExecutor({
          ...base,
          environment: req.environment,
          agentsMd: req.agentsMd ?? null,
          ...(req.inferredRuleIds ? { inferredRuleIds: req.inferredRuleIds } : {}),
          ...(req.artifacts ? artifactInput(req.artifacts, snap.prompts.config.skills) : {}),
        });
  return {
    text: req.tools ? cutToOffered(text, new Set(req.tools)) : text,
    revision: snap.prompts.revision,
    policyRevision: snap.policy.revision,
  };
}

type Artifacts = NonNullable<Extract<SystemPromptRequest, { role: 'executor' }>['artifacts']>;

const artifactInput = (a: Artifacts, team: readonly Skill[]) => ({
  role: a.role,
  ...(a.workflow ? { workflow: a.workflow } : {}),
  skills: a.composeSkills(team),
});
