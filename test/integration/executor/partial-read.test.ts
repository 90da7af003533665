import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 48 item 5: a whole-file write_file over an existing file needs every line of it seen; a
 * page of read_file permits a passage edit only, and the pages together count as the whole file.
 */

const LONG = `${Array.from({ length: 600 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

describe('issue 48: write_file needs the whole file seen', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('issue 48: after one page write_file is sent to edit_file, edit_file works; after every page write_file works', async () => {
    w = await startWorld({}, { files: { 'data/long.txt': LONG } });
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Working on it, ${card}.` }]),
      () => toolCalls(['read_file', { path: 'data/long.txt' }]),
      () => toolCalls(['write_file', { path: 'data/long.txt', content: 'short\n' }]),
      () => toolCalls(['edit_file', { path: 'data/long.txt', old: 'line 7\n', new: 'line seven\n' }]),
      () => toolCalls(['write_file', { path: 'data/long.txt', content: 'short\n' }]),
      () => toolCalls(['read_file', { path: 'data/long.txt', offset: 1, limit: 2000 }]),
      () => toolCalls(['write_file', { path: 'data/long.txt', content: 'short\n' }]),
    ]);
    await send(w.app.ctx, localMessage('Please shorten the data of the web app'));
    await flow.done();
    const refusal =
      'Error: refused: you have seen only part of data/long.txt (a page of read_file), and write_file would replace all of it; change it with edit_file, or read_file the rest first';
    expect(flow.results[1]?.[0]).toMatch(/\(lines 1–500 of 600; offset=501 to continue\)$/);
    expect(flow.results[2]).toEqual([refusal]);
    expect(flow.results[3]?.[0]).toMatch(/^edited data\/long\.txt:/);
    // The edit answered a snippet: still only part seen.
    expect(flow.results[4]).toEqual([refusal]);
    expect(flow.results[6]).toEqual(['wrote data/long.txt (6 bytes)']);
  });
});
