/** Keeps the first and last `cap / 2` bytes of a stream. */
export class CappedBuffer {
  private head: Buffer[] = [];
  private headLen = 0;
  private tail = Buffer.alloc(0);
  dropped = 0;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }

  push(b: Buffer): void {
    const half = Math.floor(this.cap / 2);
    if (this.headLen < half) {
      const take = b.subarray(0, half - this.headLen);
      this.head.push(take);
      this.headLen += take.length;
      b = b.subarray(take.length);
    }
    if (!b.length) return;
    const joined = Buffer.concat([this.tail, b]);
    const keep = joined.subarray(Math.max(0, joined.length - half));
    this.dropped += joined.length - keep.length;
    this.tail = Buffer.from(keep);
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = this.tail.toString('utf8');
    return this.dropped ? `${head}\n… [${this.dropped} bytes cut] …\n${tail}` : head + tail;
  }
}
