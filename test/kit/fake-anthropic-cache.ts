import { createHash, type Hash } from 'node:crypto';

/**
 * Anthropic's prompt cache as the docs describe it: the prompt is rendered tools → system →
 * messages; a block with `cache_control` writes the prefix up to and including it; a later
 * request reads the longest cached prefix that ends at one of its breakpoints or at one of the
 * 20 blocks before each breakpoint; prefixes under the model's minimum are never cached. Tokens
 * are estimated as 4 characters each.
 */
export interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

const LOOKBACK = 20;
const tokensOf = (chars: number) => Math.ceil(chars / 4);

type Block = Record<string, unknown>;

function rendered(body: Record<string, unknown>): Block[] {
  const list = (v: unknown) => (Array.isArray(v) ? (v as Block[]) : []);
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : list(body.system);
  const messages = list(body.messages).flatMap((m) => {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : list(m.content);
    // The role is part of what the model reads: a block means something else in another turn.
    return content.map((b) => ({ ...b, role: m.role }));
  });
  return [...list(body.tools), ...system, ...messages];
}

/** A request's prompt tokens as the fake counts them (its window and its usage agree). */
export function promptTokens(body: Record<string, unknown>): number {
  return tokensOf(
    rendered(body).reduce((n, b) => n + JSON.stringify({ ...b, cache_control: undefined }).length, 0),
  );
}

export function createPromptCache(minTokens: number) {
  const cached = new Set<string>();
  return {
    /** Usage for one request, and the prefixes it writes added to the cache. */
    use(body: Record<string, unknown>): CacheUsage {
      const blocks = rendered(body);
      const hashes: string[] = [];
      const chars: number[] = [];
      const running: Hash = createHash('sha256');
      let total = 0;
      const breakpoints: number[] = [];
      blocks.forEach((b, i) => {
        const { cache_control, ...rest } = b;
        if (cache_control) breakpoints.push(i);
        const text = JSON.stringify(rest);
        running.update(text);
        total += text.length;
        hashes.push(running.copy().digest('hex'));
        chars.push(total);
      });
      let read = 0;
      for (const bp of breakpoints) {
        for (let j = bp; j >= Math.max(0, bp - LOOKBACK); j--) {
          if (cached.has(hashes[j] as string)) {
            read = Math.max(read, tokensOf(chars[j] as number));
            break;
          }
        }
      }
      let written = 0;
      for (const bp of breakpoints) {
        const tokens = tokensOf(chars[bp] as number);
        if (tokens < minTokens) continue;
        cached.add(hashes[bp] as string);
        written = Math.max(written, tokens);
      }
      const creation = Math.max(0, written - read);
      return {
        cache_read_input_tokens: read,
        cache_creation_input_tokens: creation,
        input_tokens: Math.max(0, tokensOf(total) - read - creation),
      };
    },
  };
}
