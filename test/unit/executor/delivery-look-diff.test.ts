import { describe, expect, it } from 'vitest';
import { numberedDiff } from '../../../src/executor/delivery-look/numbered-diff.ts';
import { editedPaths } from '../../../src/executor/files/reattach-edited.ts';
import type { ChatMessage } from '../../../src/session/chat-message.ts';

const fileDiff = (path: string, added: number) =>
  [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    '--- /dev/null',
    `+++ b/${path}`,
    `@@ -0,0 +1,${added} @@`,
    ...Array.from({ length: added }, (_, i) => `+line ${i + 1}`),
  ].join('\n');

describe('issue 48: the look shows a capped, numbered diff; the edited files come back capped', () => {
  it('issue 48: at most 300 lines are shown; the file cut and the files not reached are named with their counts', () => {
    const diff = `${fileDiff('a.txt', 400)}\n${fileDiff('b.txt', 2)}`;
    const shown = numberedDiff(diff, '400\t0\ta.txt\n2\t0\tb.txt\n').split('\n');
    expect(shown.slice(0, 4)).toEqual(['a.txt (+400 −0)', '   …', '     1 + line 1', '     2 + line 2']);
    expect(shown).toHaveLength(301);
    expect(shown.at(-1)).toBe('(not shown, or only in part: a.txt (+400 −0), b.txt (+2 −0))');
  });

  it('issue 48: a short diff is shown whole, nothing named as left out', () => {
    expect(numberedDiff(fileDiff('b.txt', 2), '2\t0\tb.txt\n')).toBe(
      'b.txt (+2 −0)\n   …\n     1 + line 1\n     2 + line 2',
    );
  });

  it('review: a removed "-- " line and an added "++ " line inside a hunk are lines, not file names', () => {
    const diff = [
      'diff --git a/q.sql b/q.sql',
      'index 1111111..2222222 100644',
      '--- a/q.sql',
      '+++ b/q.sql',
      '@@ -1,3 +1,3 @@',
      ' select 1;',
      '--- a/comment',
      '+++ b/other',
      ' select 2;',
    ].join('\n');
    expect(numberedDiff(diff, '1\t1\tq.sql\n')).toBe(
      [
        'q.sql (+1 −1)',
        '   …',
        '     1   select 1;',
        '     2 - -- a/comment',
        '     2 + ++ b/other',
        '     3   select 2;',
      ].join('\n'),
    );
  });

  it('issue 48: the five files changed most recently, newest first, each once', () => {
    const write = (id: string, path: string): ChatMessage => ({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id, type: 'function', function: { name: 'write_file', arguments: JSON.stringify({ path }) } },
      ],
    });
    const done = (id: string, path: string): ChatMessage[] => [
      write(id, path),
      { role: 'tool', tool_call_id: id, content: `wrote ${path} (3 bytes)` },
    ];
    const paths = ['a', 'b', 'c', 'd', 'e', 'f', 'g', './b'].flatMap((p, i) => done(`c${i}`, p));
    expect(editedPaths(paths)).toEqual(['b', 'g', 'f', 'e', 'd']);
  });

  it('review: a write or edit the tool refused, or one never answered, is no edited file', () => {
    const call = (id: string, name: string, path: string): ChatMessage => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify({ path }) } }],
    });
    const messages: ChatMessage[] = [
      call('ok', 'edit_file', 'kept.ts'),
      { role: 'tool', tool_call_id: 'ok', content: 'edited kept.ts' },
      call('no', 'write_file', 'refused.ts'),
      { role: 'tool', tool_call_id: 'no', content: 'Error: refused: read refused.ts first' },
      call('late', 'edit_file', 'unanswered.ts'),
    ];
    expect(editedPaths(messages)).toEqual(['kept.ts']);
  });
});
