import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../kit/app.ts';
import { text, toolCalls } from '../kit/fake-llm.ts';
import { cardsIn, lastToolResults, roleOf } from '../kit/scripted-model.ts';
import { type GitHubWorld, startGitHubWorld } from './github-world.ts';

const ASK = 'please change our team paragraph';

describe.sequential('R-H5: prompt settings change by tool only for SETTINGS_ADMINS (issue 14)', () => {
  let w: GitHubWorld;
  const results: string[] = [];
  const revision = async () => Number((await w.app.ctx.redis.hget(w.app.ctx.keys.promptsHead(), 'rev')) ?? 0);

  beforeEach(async () => {
    w = await startGitHubWorld({ SETTINGS_ADMINS: 'github:Ada,feishu:ou_boss' });
    // A main session that saves whenever a candidate asks, then ignores the card.
    w.llm.respond((req) => {
      if (req.messages.at(-1)?.role === 'tool') {
        results.push(...lastToolResults(req));
        return text('Done.');
      }
      const cards = cardsIn(req);
      if (roleOf(req) !== 'main' || !cards.length) return text('Nothing to do.');
      return toolCalls(
        ...cards.map(
          (card) =>
            [
              'orchestrator_prompts_save',
              { card, base_revision: 0, team: { about: `Saved for ${card}.` } },
            ] as [string, unknown],
        ),
        ['orchestrator_route', { decisions: cards.map((card) => ({ card, action: 'ignore' })) }],
      );
    });
  });
  afterEach(async () => w?.close());

  it('R-H5: a writer who is not a settings admin is refused in code and pointed to the panel; nothing is saved', async () => {
    const card = await w.comment('grace', `@switchyard-bot ${ASK}`, 60);
    await waitFor(() => results.some((r) => r.includes(card)), 'the save tool result', 15_000);
    expect(results.find((r) => r.includes(card))).toMatch(/refused.*SETTINGS_ADMINS/s);
    expect(await revision()).toBe(0);
    await waitFor(
      () => w.botComments(60).some((b) => /settings panel/i.test(b)),
      'a polite refusal pointing to the panel',
      20_000,
    );
  });

  it('R-H5: a settings admin (login matched case-insensitively) saves by asking', async () => {
    await w.comment('ada', `@switchyard-bot ${ASK}`, 61);
    await waitFor(() => results.some((r) => r.includes('saved as revision')), 'the save', 15_000);
    expect(await revision()).toBe(1);
    expect(w.botComments(61).some((b) => /settings panel/i.test(b))).toBe(false);
  });
});
