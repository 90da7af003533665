import { afterEach, describe, expect, it } from 'vitest';
import { contextPrompts } from '../../../src/session/context/context-prompts.ts';
import { createTranscriptStore } from '../../../src/session/transcript-store.ts';
import { listTickets } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/** The one ticket's id, once it exists. */
async function onlyTicketId(w: World): Promise<string> {
  const [t] = await listTickets(w.app.ctx);
  if (!t) throw new Error('no ticket yet');
  return t.id;
}

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

  it('issue 28: a file whose read a real compaction elided must be read again before write_file replaces it; a read the view still shows whole need not be', async () => {
    // 120 numbered lines (~4 kB): a read of it is long enough to be elided.
    const config = Array.from({ length: 120 }, (_, i) => `export const OPTION_${i} = ${i};`).join('\n');
    // ~40 kB (about 10k tokens) a read: nine of them pass 75 % of a 128k window, and once elided
    // the view is small enough that nothing needs summarising.
    const filler = Array.from({ length: 800 }, (_, i) => `row ${i}: ${'y'.repeat(40)}`).join('\n');
    w = await startWorld(
      { LLM_CONTEXT_TOKENS: '128000' },
      { files: { 'src/config.ts': `${config}\n`, 'data/filler.txt': `${filler}\n` } },
    );
    const fromMemory = 'export const OPTION_0 = 0;\n';
    const configElided = (req: RecordedRequest) =>
      req.messages.some(
        (m) =>
          m.role === 'tool' &&
          /^ +1\texport const OPTION_0[\s\S]*characters of this output were cut/.test(m.content ?? ''),
      );
    let fillers = 0;
    let card = '';
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
      if (req.system === contextPrompts.summarise) return text(`Tidying the config for ${card}.`);
      if (!card) {
        card = cardsIn(req)[0] ?? '';
        return toolCalls(
          ['reply', { to: card, text: `Tidying the config for ${card}.` }],
          ['read_file', { path: 'src/config.ts' }],
          ['read_file', { path: 'src/login.ts' }],
        );
      }
      const last = lastToolResults(req)[0] ?? '';
      if (last.startsWith('Error: refused: src/config.ts'))
        return toolCalls([
          'write_file',
          { path: 'src/login.ts', content: 'export const next = (u: string) => u || "/";\n' },
        ]);
      if (last.startsWith('wrote src/login.ts')) return toolCalls(['read_file', { path: './src/config.ts' }]);
      if (last.startsWith('     1\texport const OPTION_0'))
        return toolCalls([
          'write_file',
          { path: 'src/config.ts', content: `${config}\nexport const OPTION_X = 1;\n` },
        ]);
      if (last.startsWith('wrote src/config.ts')) return text('Done for now.');
      // Reads of the filler until the view elides the config's read (at most 20), then the rewrite from memory.
      if (!configElided(req) && fillers < 20) {
        fillers++;
        return toolCalls(['read_file', { path: 'data/filler.txt', limit: 800 }]);
      }
      return toolCalls(['write_file', { path: 'src/config.ts', content: fromMemory }]);
    });
    await send(w.app.ctx, localMessage('Please tidy the config'));
    const answers = async () => {
      const t = await createTranscriptStore(w.app.ctx).load(`exec-${await onlyTicketId(w)}`);
      return { t, tool: t.messages.filter((m) => m.role === 'tool').map((m) => m.content) };
    };
    await waitFor(
      async () =>
        (await answers().catch(() => ({ tool: [] as string[] }))).tool.some((c) =>
          c.startsWith('wrote src/config.ts'),
        ),
      'the re-read write',
      90_000,
    );
    const { t, tool } = await answers();
    // A real compaction elided the config's read (and summarised nothing: the short read stays whole).
    expect(t.context.compactions).toBeGreaterThanOrEqual(1);
    expect(t.context.summarisedBefore).toBe(0);
    expect(tool).toContain(
      'Error: refused: src/config.ts exists and you have not read it in this session; read_file it first, then change it (edit_file for a passage)',
    );
    expect(tool.filter((c) => c.startsWith('wrote src/login.ts'))).toHaveLength(1);
    expect(tool.filter((c) => c.startsWith('wrote src/config.ts'))).toHaveLength(1);
    expect(tool.indexOf(tool.find((c) => c.startsWith('wrote src/config.ts')) as string)).toBeGreaterThan(
      tool.findIndex((c) => c.startsWith('Error: refused: src/config.ts')),
    );
  }, 120_000);

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
