import { describe, expect, it } from 'vitest';
import { readPage } from '../../../../src/executor/files/read-page.ts';
import type { ChatMessage } from '../../../../src/session/chat-message.ts';
import { elideToolOutput } from '../../../../src/session/context/elide-tool-outputs.ts';

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/** A read_file call and its answer, as the transcript holds them. */
function readStep(args: object, content: string): ChatMessage[] {
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: JSON.stringify(args) } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content },
  ];
}

describe('issue 28: an elided read_file page names the call that reads exactly the lines cut', () => {
  it('issue 28: the note gives read_file({ path, offset, limit }) for the rows between head and tail', () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n');
    const page = readPage('src/app.ts', text, 101, 150);
    const messages = readStep({ path: 'src/app.ts', offset: 101, limit: 150 }, page.ok ? page.content : '');
    const elided = elideToolOutput(messages[1] as ToolMessage, messages, 1).content;
    // Rows are 16 characters: the head's 500 keep rows 101–131 whole and start row 132; the
    // tail's 400 hold the footer (48) and rows 229–250 whole. So rows 132–228 were cut.
    expect(elided).toContain(
      'characters of this output were cut to keep the context small; to see them, call read_file({"path":"src/app.ts","offset":132,"limit":97})]',
    );
    expect(elided.startsWith(`${'   101\tline 101'}\n`)).toBe(true);
    expect(elided).toContain('   131\tline 131\n   1');
    expect(elided).toContain('   229\tline 229\n');
    expect(elided).not.toContain('   228\tline 228');
  });

  it('issue 28: other outputs keep the note that repeats their call', () => {
    const messages = readStep({ path: 'notes.txt' }, 'x'.repeat(3000));
    const elided = elideToolOutput(messages[1] as ToolMessage, messages, 1).content;
    expect(elided).toContain('to see them, call read_file({"path":"notes.txt"}) again]');
  });
});
