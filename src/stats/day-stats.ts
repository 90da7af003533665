/** Tokens one session kind used in a day. */
export interface KindTokens {
  prompt: number;
  completion: number;
  cacheHit: number;
}

/** Count, mean and largest of one day's durations (ms). */
export interface Durations {
  n: number;
  meanMs: number;
  maxMs: number;
}

/** A day's model cost in USD (issue 33 item 5): in all, and by session kind, ticket, repository and chat. */
export interface DayCost {
  usd: number;
  kinds: Record<string, number>;
  tickets: Record<string, number>;
  repos: Record<string, number>;
  chats: Record<string, number>;
}

/** One UTC day's counters as the charts read them (`GET /api/stats/daily`). */
export interface DayStats {
  day: string;
  tokens: Record<string, KindTokens>;
  cost: DayCost;
  tickets: { opened: number; done: number; blocked: number };
  ack: Durations;
  turns: Record<string, Durations>;
}

const num = (v: string | undefined): number => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};

const durations = (n: number, sum: number, max: number): Durations => ({
  n,
  meanMs: n ? Math.round(sum / n) : 0,
  maxMs: max,
});

/** The session kinds named in a day's fields with the given prefix (`tokens:prompt:`, `turn:n:`). */
const kindsOf = (h: Record<string, string>, prefix: string): string[] =>
  Object.keys(h)
    .filter((f) => f.startsWith(prefix))
    .map((f) => f.slice(prefix.length));

/** Nano-dollar fields with this prefix, in USD by the rest of their name. */
function usdBy(h: Record<string, string>, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of kindsOf(h, prefix)) out[name] = num(h[prefix + name]) / 1e9;
  return out;
}

const costOf = (h: Record<string, string>): DayCost => ({
  usd: num(h['cost:all']) / 1e9,
  kinds: usdBy(h, 'cost:kind:'),
  tickets: usdBy(h, 'cost:ticket:'),
  repos: usdBy(h, 'cost:repo:'),
  chats: usdBy(h, 'cost:chat:'),
});

/** Reads one day's hash (fields written by `src/stats/daily-counts.ts`). */
export function dayStatsFrom(day: string, h: Record<string, string>): DayStats {
  const tokens: Record<string, KindTokens> = {};
  for (const k of kindsOf(h, 'tokens:prompt:'))
    tokens[k] = {
      prompt: num(h[`tokens:prompt:${k}`]),
      completion: num(h[`tokens:completion:${k}`]),
      cacheHit: num(h[`tokens:cache:${k}`]),
    };
  const turns: Record<string, Durations> = {};
  for (const k of kindsOf(h, 'turn:n:'))
    turns[k] = durations(num(h[`turn:n:${k}`]), num(h[`turn:ms:${k}`]), num(h[`turn:max:${k}`]));
  return {
    day,
    tokens,
    cost: costOf(h),
    tickets: {
      opened: num(h['tickets:opened']),
      done: num(h['tickets:done']),
      blocked: num(h['tickets:blocked']),
    },
    ack: durations(num(h['ack:n']), num(h['ack:ms']), num(h['ack:max'])),
    turns,
  };
}
