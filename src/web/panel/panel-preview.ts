import { bulletLines, fillTemplate } from '../../prompts/fill-template.ts';
import {
  assembleExecutor,
  assembleMain,
  type Builtins,
  effectiveSections,
  getPolicy,
  type PolicySettings,
  type PromptDeps,
  prepareSettings,
  renderPolicy,
  type SettingsProblem,
} from '../../prompts/index.ts';
import { skillsBlock, teamBlock } from '../../prompts/render-blocks.ts';
import type { PromptSettings } from '../../prompts/settings.ts';
import { emptySettings } from '../../prompts/settings.ts';
import { asRecord } from '../../prompts/settings-size.ts';
import { draftSettings } from './draft-settings.ts';
import { labelParts, type PreviewPart } from './label-parts.ts';

export interface Preview {
  main: PreviewPart[];
  executor: PreviewPart[];
  /** What a save of this draft would be refused for (R-F4), so the preview never hides it. */
  problems: SettingsProblem[];
  policyRevision: number;
}

/** Example values: the real ones are the deployment's (main) and each ticket's (executor), R-E8. */
const EXAMPLE_EXECUTOR_ENV = {
  ticket: 'T-example: an example ticket',
  requester: 'a person',
  'original conversation': 'local:example',
  'opening card': 'card-example',
};

/**
 * The assembled prompts of a draft, exactly as `assembleMain`/`assembleExecutor` produce them,
 * cut at the section boundaries so the panel can show where each section starts (R-E7).
 */
export async function previewDraft(
  deps: PromptDeps,
  body: unknown,
  mainEnv: Record<string, string>,
): Promise<Preview> {
  const settings = draftSettings(body);
  const policy = await getPolicy(deps);
  const { revision, ...config } = policy;
  const input = { builtins: deps.builtins, settings, policy: { revision, config } };
  const main = assembleMain({ ...input, environment: mainEnv });
  const executor = assembleExecutor({ ...input, environment: EXAMPLE_EXECUTOR_ENV });
  // The draft's base revision is the save's business, not a setting.
  const { baseRevision: _base, ...draft } = asRecord(body);
  const prepared = prepareSettings(draft, {
    builtins: deps.builtins,
    sizeCap: deps.sizeCap,
    saved: emptySettings(),
  });
  const known = boundaries(deps.builtins, settings, revision, config);
  return {
    main: labelParts(main, known.main(mainEnv)),
    executor: labelParts(executor, known.executor(EXAMPLE_EXECUTOR_ENV)),
    problems: prepared.ok ? [] : prepared.errors,
    policyRevision: revision,
  };
}

/** Each labelled block in the order R-E7 puts it, for the main session and for an executor. */
function boundaries(builtins: Builtins, settings: PromptSettings, revision: number, policy: PolicySettings) {
  const s = effectiveSections(builtins, settings);
  const env = (values: Record<string, string>) =>
    fillTemplate(s['runtime/environment'], {
      variables: bulletLines(Object.entries(values).map(([k, v]) => `${k}: ${v}`)),
    });
  const team = { label: 'team paragraphs', text: teamBlock(settings.team) };
  return {
    main: (values: Record<string, string>) => [
      { label: 'shared', text: s.shared },
      { label: 'role/main', text: s['role/main'] },
      team,
      { label: 'subscription', text: s.subscription },
      { label: 'dispatch', text: s.dispatch },
      { label: 'runtime/admission', text: s['runtime/admission'] },
      { label: 'handoff', text: s.handoff },
      { label: 'runtime/environment', text: env(values) },
      { label: 'runtime/policy', text: renderPolicy(s, revision, policy) },
    ],
    executor: (values: Record<string, string>) => [
      { label: 'shared', text: s.shared },
      { label: 'role/executor', text: s['role/executor'] },
      team,
      { label: 'subscription', text: s.subscription },
      { label: 'work', text: s.work },
      { label: 'harness', text: s.harness },
      { label: 'skills', text: skillsBlock([...builtins.skills, ...settings.skills]) },
      { label: 'handoff', text: s.handoff },
      { label: 'runtime/environment', text: env(values) },
    ],
  };
}
