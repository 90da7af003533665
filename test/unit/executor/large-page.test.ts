import { describe, expect, it } from 'vitest';
import { LinePager } from '../../../src/executor/files/large-page.ts';
import { readPage } from '../../../src/executor/files/read-page.ts';

const row = (n: number, text: string) => `${String(n).padStart(6)}\t${text}`;

/** The pager's answer for `text` fed in chunks of `size` bytes. */
function paged(text: string | Buffer, size: number, offset?: number, limit?: number) {
  const data = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const pager = new LinePager(offset, limit);
  for (let at = 0; at < data.length; at += size) pager.push(data.subarray(at, at + size));
  return pager.answer('big.log', data.length);
}

describe('issue 28: read_file pages a file too large to hold, line by line as it streams', () => {
  it('numbers lines and says where the page ends as readPage does, whatever the chunk boundaries', () => {
    const text = `${Array.from({ length: 1200 }, (_, i) => `line ${i + 1}`).join('\r\n')}\r\n`;
    const small = readPage('big.log', text);
    for (const size of [1, 7, 4096]) {
      const got = paged(text, size);
      expect(got.ok).toBe(true);
      if (!got.ok || !small.ok) continue;
      // The same rows, and the footer names the size too.
      expect(got.content.split('\n').slice(0, -1)).toEqual(small.content.split('\n').slice(0, -1));
      expect(got.content.split('\n').at(-1)).toBe(
        `(lines 1–500 of 1200; big.log is ${(text.length / 1048576).toFixed(1)} MB; offset=501 to continue)`,
      );
    }
  });

  it('a page from an offset, the last line without a newline, and an offset past the end', () => {
    const text = 'a\nb\nc\nlast';
    expect(paged(text, 3, 3, 10)).toEqual({
      ok: true,
      content: `${row(3, 'c')}\n${row(4, 'last')}\n(lines 3–4 of 4; big.log is 0.0 MB)`,
    });
    expect(paged(text, 3, 9)).toEqual({ ok: false, error: 'offset 9 is past the end: big.log has 4 lines' });
    expect(paged('', 3)).toEqual({ ok: true, content: '(big.log is empty: 0 lines)' });
  });

  it('a line longer than 2,000 characters is cut, saying how many bytes were left out, without holding it whole', () => {
    const long = 'x'.repeat(100_000);
    const got = paged(`${long}\nafter\n`, 65_536);
    expect(got).toEqual({
      ok: true,
      content: `${row(1, 'x'.repeat(2000))} [… line cut: 98000 more bytes]\n${row(2, 'after')}\n(lines 1–2 of 2; big.log is 0.1 MB)`,
    });
  });

  it('stops adding lines past the answer’s byte cap and says so, with the offset to continue', () => {
    const line = 'y'.repeat(1500);
    const text = Array.from({ length: 300 }, () => line).join('\n');
    const got = paged(text, 8192, 1, 300);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    const rows = got.content.split('\n');
    expect(rows.length - 1).toBe(66);
    expect(rows.at(-1)).toBe(
      '(lines 1–66 of 300; big.log is 0.4 MB; cut at 100000 bytes; offset=67 to continue)',
    );
  });
});
