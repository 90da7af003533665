import { pathToFileURL } from 'node:url';
import { buildCard } from '../src/cards/build-card.ts';
import { MessageEventSchema } from '../src/channels/feishu/event-schemas.ts';
import { parseMessageEvent } from '../src/channels/feishu/parse-message-event.ts';
import { parseGitHubEvent } from '../src/channels/github/parse-event.ts';
import { loadConfig } from '../src/config.ts';
import { githubPayloads } from '../test/kit/github-webhook.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

/** GitHub's own cap on a comment body; Feishu texts are bounded by the 1 MiB webhook cap first. */
const SIZE = 65_000;
const RUNS = 25;
const BOT = 'switchyard-bot';
const fill = (unit: string, end = 'x') => unit.repeat(Math.floor((SIZE - end.length) / unit.length)) + end;

const MANY_TEXT = fill('@_user_7 ');

/** Text shapes that make backtracking regexes and naive scans pay per character (issue 14). */
const HOSTILE: Record<string, string> = {
  'URL + 65k `)`': `http://a/${fill(')')}`,
  'URL + 65k `.`': `http://a/${fill('.')}`,
  'zero-width run': fill('\u200b'),
  'bidi + tag characters': fill('\u202e\u{E0041}'),
  'unterminated comments': fill('<!--'),
  'space run before a word': `pause${fill(' ')}`,
  '13k @-mentions': fill(`@${BOT} `),
  '10k-mention list (Feishu)': MANY_TEXT,
  '20k #refs': fill('#1 '),
  '10k owner/repo#n': fill('a/b#12 '),
  'heading line of spaces': `# a${fill(' ')}`,
  'newline run': fill('\n'),
};
const PLAIN = fill('The login page loops back to itself after sign-in; please look. ');

const config = loadConfig({ CHAT_REPOS: 'oc_team=acme/web' });

/** One GitHub comment, webhook payload → parsed draft → built card: all on the event loop. */
function githubCard(body: string, i: number): void {
  const payload = githubPayloads.mentionComment({ repo: 'acme/web', body, commentId: i });
  const out = parseGitHubEvent('issue_comment', `d-${i}`, payload, { botLogin: BOT });
  if (out.kind === 'card') buildCard(out.draft);
}

/** A Feishu message's mention list: 5 people, or (the hostile one) 10,000. */
const mentionList = (count: number) =>
  Array.from({ length: count }, (_, n) => ({
    key: `@_user_${n + 1}`,
    id: { open_id: `ou_${n}`, union_id: `on_${n}`, user_id: `u${n}` },
    name: `person ${n}`,
  }));
const FEW = mentionList(5);
const MANY = mentionList(10_000);

/** One Feishu message, event → parsed draft → built card; the 10k-mention shape brings its list. */
async function feishuCard(text: string, i: number): Promise<void> {
  const mentions = text === MANY_TEXT ? MANY : FEW;
  const event = MessageEventSchema.parse({
    event_id: `ev-${i}`,
    sender: { sender_id: { open_id: 'ou_alice' }, sender_type: 'user' },
    message: {
      message_id: `om_${i}`,
      chat_id: 'oc_team',
      chat_type: 'p2p',
      message_type: 'text',
      content: JSON.stringify({ text }),
      mentions,
    },
  });
  const out = await parseMessageEvent(event, { config, botOpenId: 'ou_bot' });
  if (out.kind === 'card') buildCard(out.draft);
}

/**
 * Event-loop milliseconds per card: the path makes no I/O (its awaits resolve at once), so its
 * time is the loop's.
 */
async function cost(
  make: (text: string, i: number) => void | Promise<void>,
  text: string,
): Promise<{ p50: number; max: number }> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await make(text, i);
    ms.push(performance.now() - start);
  }
  return { p50: quantile(ms, 0.5), max: Math.max(...ms) };
}

/**
 * Issue 14 "input costs nothing": the worst external text by size and shape, through card
 * building from a GitHub comment and a Feishu message, against plain prose of the same size in
 * the same run. The goal is under 5 ms of event-loop time per card.
 */
export async function benchHostileText(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [channel, make] of [
    ['github', githubCard],
    ['feishu', feishuCard],
  ] as const) {
    await cost(make, PLAIN); // warm-up
    const plain = await cost(make, PLAIN);
    let worst = { shape: '', p50: 0, max: 0 };
    for (const [shape, text] of Object.entries(HOSTILE)) {
      const c = await cost(make, text);
      if (c.p50 > worst.p50) worst = { shape, ...c };
    }
    rows.push({
      name: `hostile text → ${channel} card, worst shape p50`,
      value: worst.p50,
      unit: 'ms',
      baseline: plain.p50,
      ratio: worst.p50 / plain.p50,
      note: `${Object.keys(HOSTILE).length} shapes of ${SIZE} chars, ${RUNS} runs each; worst: ${worst.shape} (max ${worst.max.toFixed(2)} ms); baseline: plain prose of the same size; goal < 5 ms`,
    });
  }
  return rows;
}

// `npx tsx bench/hostile-text.ts` runs this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchHostileText(), null, 2)}\n`);
}
