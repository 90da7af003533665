import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { lastToolResults } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 28: bad habits of coding models, played by a scripted model through the real product,
 * and what the tools answer so that the model recovers.
 */
describe('issue 28: bad habits meet answers the model can act on', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('issue 28: a model rewriting a file from memory (never read this session, as after a compaction) is told to read_file first, and recovers within 2 steps', async () => {
    w = await startWorld();
    const memory = 'export const next = (u: string) => u || "/";\n';
    /** The step at which the model saw each result, to count its recovery. */
    const script = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Fixing the login redirect for ${card}.` }]),
      () => toolCalls(['write_file', { path: 'src/login.ts', content: memory }]),
      // The model follows what the refusal says.
      (req) =>
        lastToolResults(req)[0]?.includes('read_file it first')
          ? toolCalls(['read_file', { path: 'src/login.ts' }])
          : toolCalls(['list_files', {}]),
      () => toolCalls(['write_file', { path: 'src/login.ts', content: memory }]),
      () => toolCalls(['read_file', { path: 'src/login.ts' }]),
    ]);
    await send(w.app.ctx, localMessage('Please make the login redirect fall back to /'));
    await script.done();
    expect(script.results[1]).toEqual([
      'Error: refused: src/login.ts exists and you have not read it in this session; read_file it first, then change it (edit_file for a passage)',
    ]);
    // Two steps later the same write went through: one read, one write.
    expect(script.results[2]).toEqual(['     1\texport const next = (u: string) => u;\n(line 1 of 1)']);
    expect(script.results[3]).toEqual(['wrote src/login.ts (45 bytes)']);
    expect(script.results[4]).toEqual([`     1\t${memory.trimEnd()}\n(line 1 of 1)`]);
  });

  it('issue 28: a PCRE search — \\d+ finds numbers, which an extended regex would not', async () => {
    w = await startWorld(
      {},
      { files: { 'src/retry.ts': 'export const RETRIES = 3;\nexport const DELAY_MS = 250;\n' } },
    );
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Looking at the retry settings for ${card}.` }]),
      () => toolCalls(['search_files', { pattern: '\\d+' }]),
    ]);
    await send(w.app.ctx, localMessage('Please check the retry settings'));
    await flow.done();
    expect(flow.results[1]).toEqual([
      'src/retry.ts:1:export const RETRIES = 3;\nsrc/retry.ts:2:export const DELAY_MS = 250;',
    ]);
  });
});
