import { afterEach, describe, expect, it } from 'vitest';
import { contextPrompts } from '../../../src/session/context/context-prompts.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { startWorld, type World } from './harness.ts';

/**
 * Issue 48 item 5: after a compaction summarised the steps away, the files the executor edited
 * most recently come back after the summary, as they are now, and count as read.
 */

const FILLER = Array.from({ length: 200 }, (_, i) => `row ${i}: ${'y'.repeat(40)}`).join('\n');
const FIXED = 'export const next = (u: string) => u || "/";\n';

describe('issue 48: the edited files come back after a compaction', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('issue 48: after a summary, the edited file is shown with its lines and may be rewritten without a new read', async () => {
    w = await startWorld({ LLM_CONTEXT_TOKENS: '24000' }, { files: { 'data/filler.txt': `${FILLER}\n` } });
    let card = '';
    let summarised = false;
    let after: RecordedRequest | undefined;
    const rewrite: string[] = [];
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (req.system === contextPrompts.summarise) {
        summarised = true;
        return text(`Fixed the login redirect for ${card}.`);
      }
      if (!card) {
        card = cardsIn(req)[0] ?? '';
        return toolCalls(
          ['reply', { to: card, text: `Fixing the login for ${card}.` }],
          ['read_file', { path: 'src/login.ts' }],
        );
      }
      const last = lastToolResults(req).at(-1) ?? '';
      if (last.startsWith('     1\texport const next = (u: string) => u;'))
        return toolCalls(['write_file', { path: 'src/login.ts', content: FIXED }]);
      if (rewrite.length) return text('Done for now.');
      if (summarised) {
        after = req;
        rewrite.push('asked');
        return toolCalls(['write_file', { path: 'src/login.ts', content: `${FIXED}// tidy\n` }]);
      }
      return toolCalls(['read_file', { path: 'data/filler.txt' }]);
    });
    await send(w.app.ctx, localMessage('Please fix the login redirect'));
    const result = await waitFor(
      () =>
        rewrite.length && w.llm.requests.at(-1) !== after
          ? lastToolResults(w.llm.requests.at(-1) as RecordedRequest)[0]
          : undefined,
      'the rewrite after the summary',
      45_000,
    );
    const progress = after?.messages[1]?.content ?? '';
    expect(progress).toMatch(/^Progress so far/);
    expect(progress).toContain(
      `The files you changed most recently, as they are now (counted as read; a long one is cut, read_file shows the rest):\n\nsrc/login.ts:\n     1\t${FIXED.trim()}`,
    );
    expect(result).toBe('wrote src/login.ts (53 bytes)');
  }, 60_000);
});
