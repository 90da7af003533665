import { type ToolResult, toolError, toolOk } from '../../session/tool.ts';
import { LINE_CHARS, lineSpan, numberedLine } from './numbered-lines.ts';
import { READ_DEFAULT_LINES, READ_MAX_BYTES, READ_MAX_LINES } from './read-page.ts';

/** Bytes of one line a page keeps: enough for `LINE_CHARS` characters of any UTF-8. */
const LINE_KEEP_BYTES = LINE_CHARS * 4;

/**
 * `read_file`'s page of a file too large to hold (a 30 MB log), built from its bytes as they
 * stream past: the same numbered lines and footer as `readPage`, every line counted, only the
 * page's lines kept (each at most `LINE_KEEP_BYTES`).
 */
export class LinePager {
  private readonly want: number;
  private readonly rows: string[] = [];
  private rowBytes = 0;
  private full = false;
  private line = 0;
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private lineBytes = 0;
  private ended = true;
  private readonly offset: number;
  private readonly limit: number;

  constructor(offset = 1, limit = READ_DEFAULT_LINES) {
    this.offset = offset;
    this.limit = limit;
    this.want = Math.min(limit, READ_MAX_LINES);
  }

  /** Takes the next bytes of the file. */
  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      const nl = chunk.indexOf(0x0a, at);
      const end = nl === -1 ? chunk.length : nl;
      this.take(chunk.subarray(at, end));
      if (nl === -1) break;
      this.endLine();
      at = nl + 1;
    }
  }

  /** The answer once the whole file went past. */
  answer(rel: string, bytes: number): ToolResult {
    if (!this.ended) this.endLine();
    const total = this.line;
    if (total === 0) return toolOk(`(${rel} is empty: 0 lines)`);
    if (this.offset > total)
      return toolError(`offset ${this.offset} is past the end: ${rel} has ${total} lines`);
    const last = this.offset + this.rows.length - 1;
    const notes = [`${lineSpan(this.offset, last)} of ${total}`, `${rel} is ${megabytes(bytes)}`];
    if (this.full) notes.push(`cut at ${READ_MAX_BYTES} bytes`);
    if (this.limit > READ_MAX_LINES) notes.push(`limit is at most ${READ_MAX_LINES}`);
    if (last < total) notes.push(`offset=${last + 1} to continue`);
    return toolOk(`${this.rows.join('\n')}\n(${notes.join('; ')})`);
  }

  private take(part: Buffer): void {
    this.ended = false;
    this.lineBytes += part.length;
    const n = this.line + 1;
    if (!this.onPage(n) || this.keptBytes >= LINE_KEEP_BYTES) return;
    const room = LINE_KEEP_BYTES - this.keptBytes;
    this.kept.push(Buffer.from(part.subarray(0, room)));
    this.keptBytes += Math.min(room, part.length);
  }

  private endLine(): void {
    this.line++;
    if (this.onPage(this.line)) {
      let text = Buffer.concat(this.kept).toString('utf8');
      if (text.endsWith('\r')) text = text.slice(0, -1);
      // A line cut while streaming is said in bytes (its characters were never all decoded).
      const shown = text.slice(0, LINE_CHARS);
      const row =
        this.lineBytes > this.keptBytes
          ? `${numberedLine(this.line, shown)} [… line cut: ${this.lineBytes - Buffer.byteLength(shown)} more bytes]`
          : numberedLine(this.line, text);
      const bytes = Buffer.byteLength(row) + 1;
      if (this.rows.length > 0 && this.rowBytes + bytes > READ_MAX_BYTES) this.full = true;
      else {
        this.rows.push(row);
        this.rowBytes += bytes;
      }
    }
    this.kept = [];
    this.keptBytes = 0;
    this.lineBytes = 0;
    this.ended = true;
  }

  private onPage(n: number): boolean {
    return !this.full && n >= this.offset && this.rows.length < this.want;
  }
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
