import { describe, expect, it } from 'vitest';
import { cutReads } from '../../../src/executor/files/forget-cut-reads.ts';
import type { ChatMessage } from '../../../src/session/chat-message.ts';
import { freshContext } from '../../../src/session/context/context-state.ts';

const call = (id: string, name: string, args: object): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const answer = (id: string, content: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content });
const long = (first: string) => `     1\t${first}\n${'     2\tmore text\n'.repeat(200)}`;

/** Issue 28, read before write: which reads a compaction cuts, so the file must be read again. */
describe('cutReads (issue 28)', () => {
  const messages: ChatMessage[] = [
    { role: 'user', content: 'card' },
    call('a', 'read_file', { path: './src/big.ts' }),
    answer('a', long('big')),
    call('b', 'read_file', { path: 'src/small.ts' }),
    answer('b', '     1\tsmall\n(line 1 of 1)'),
    call('c', 'write_file', { path: 'src/new.ts', content: 'x' }),
    answer('c', 'wrote src/new.ts (1 bytes, a new file)'),
    call('d', 'read_file', { path: 'src/again.ts' }),
    answer('d', long('again')),
    call('e', 'read_file', { path: 'src//again.ts', offset: 1 }),
    answer('e', long('again')),
  ];

  it('nothing is cut before any compaction', () => {
    expect(cutReads(messages, freshContext())).toEqual([]);
  });

  it('an elided long read is cut (its path as confinePath names it); a short read, a write and a file read again after the cut are not', () => {
    expect(cutReads(messages, { ...freshContext(), elidedBefore: 10, compactions: 1 })).toEqual([
      'src/big.ts',
    ]);
  });

  it('a summarised step cuts everything in it, writes and short reads too', () => {
    const state = { ...freshContext(), summarisedBefore: 7, elidedBefore: 7, summary: 's', compactions: 1 };
    expect(cutReads(messages, state).sort()).toEqual(['src/big.ts', 'src/new.ts', 'src/small.ts']);
  });
});
