import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCard } from '../../../src/cards/build-card.ts';
import { type CardDraft, TEXT_CAP, TriggerCardSchema } from '../../../src/cards/card.ts';
import { createFeishuDispatcher } from '../../../src/channels/feishu/dispatcher.ts';
import { parseGitHubEvent } from '../../../src/channels/github/parse-event.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { cardAction, groupMention, threadReply } from '../../kit/feishu-webhook.ts';
import { githubPayloads as P } from '../../kit/github-webhook.ts';
import { pathsOf, setAt } from '../../kit/json-paths.ts';

/**
 * Issue 18: `buildCard` no longer runs the card schema on every webhook (it was about a fifth of
 * the answer's CPU); it builds the card from a typed draft, every bound applied on the way. These
 * properties are what the schema check guaranteed at run time: whatever a channel's parser makes
 * of a real event with any one field replaced by arbitrary JSON, or of arbitrary text, the card
 * passes `TriggerCardSchema` unchanged — nothing the parse would strip, cut or refuse.
 */
// No shrinking: a failing 9,000-character text would take minutes to shrink, blocking the worker.
const RUNS = { numRuns: 400, endOnFailure: true };

function expectValid(card: unknown): void {
  const parsed = TriggerCardSchema.safeParse(card);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
  expect(parsed.data).toEqual(card);
}

const BOT = 'switchyard-bot';
const githubDraft = (event: string, payload: unknown): CardDraft | undefined => {
  const out = parseGitHubEvent(event, 'delivery-1', payload, { botLogin: BOT });
  return out.kind === 'card' ? out.draft : undefined;
};
/** Each event with the counterexamples runs found, kept as explicit examples. */
const GITHUB_EVENTS: [string, unknown, [(string | number)[], unknown][]?][] = [
  [
    'issue_comment',
    P.mentionComment({ body: `@${BOT} please fix #3 and acme/other#4`, issueBody: 'It breaks.' }),
  ],
  ['pull_request_review_comment', P.reviewComment()],
  ['pull_request_review', P.review()],
  // Seed -169302232: an empty head branch made a branch ref without a name.
  ['pull_request', P.prOpened(), [[['pull_request', 'head', 'ref'], '']]],
  ['check_run', P.checkRunFailed()],
  ['issues', P.issueAssigned({ sender: 'ada' })],
];

const facts = {
  config: loadConfig({ FEISHU_APP_ID: 'cli_a0b1c2d3e4f50617', FEISHU_APP_SECRET: 'secret' }),
  botOpenId: 'ou_bot',
};
const dispatcher = createFeishuDispatcher(() => facts, createLogger('silent'));
const feishuDraft = async (body: unknown): Promise<CardDraft | undefined> => {
  try {
    const out = await dispatcher.dispatch(body as Record<string, unknown>);
    return out.kind === 'card' ? out.draft : undefined;
  } catch {
    return undefined; // refused (a 400): nothing is built
  }
};
const FEISHU_EVENTS = [
  groupMention('@bot please look at https://github.com/acme/widgets/pull/7', 'ou_bot'),
  threadReply('and the footer too', 'om_root'),
  cardAction(),
];

/** Text as people (and attackers) write it: long, hidden markup, invisible and CJK characters. */
const text = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: fc.constantFrom('a', '\n', '<!--', '-->', '\u200b', '\u202e'), maxLength: 400 }),
  // Around and past the caps (TEXT_CAP, CONTEXT_OPENING), cut at every kind of boundary. (No
  // `<!--` here: an unterminated one hides the rest, and the text would rarely stay long.)
  fc.string({
    unit: fc.constantFrom('a', ' ', '\n', '.', '#', '-->', '\u200b', '\u202e', '修', '😀'),
    minLength: 700,
    maxLength: 9000,
    size: 'max',
  }),
);

describe('issue 18: every card buildCard makes passes the card schema unchanged', () => {
  it('GitHub: real payloads with any one field replaced', () => {
    for (const [event, base, examples = []] of GITHUB_EVENTS) {
      expect(githubDraft(event, base), `${event} parses`).toBeDefined();
      const paths = pathsOf(base);
      fc.assert(
        fc.property(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), (path, value) => {
          const draft = githubDraft(event, setAt(base, path, value));
          if (draft) expectValid(buildCard(draft, 1_700_000_000_000).card);
        }),
        { ...RUNS, examples },
      );
    }
  });

  it('GitHub: arbitrary comment, issue and title text', () => {
    fc.assert(
      fc.property(text, text, text, (body, issueBody, title) => {
        const base = P.mentionComment({ body, issueBody }) as { issue: { title: string } };
        base.issue.title = title;
        const draft = githubDraft('issue_comment', base);
        if (!draft) throw new Error('a comment with any text is a card');
        const { card, fullText } = buildCard(draft, 1);
        expectValid(card);
        expect(card.text.length).toBeLessThanOrEqual(TEXT_CAP);
        expect(Boolean(fullText)).toBe(Boolean(card.truncated));
      }),
      RUNS,
    );
  });

  it('Feishu: real events with any one field replaced, and arbitrary message text', async () => {
    for (const base of FEISHU_EVENTS) {
      expect(await feishuDraft(base), 'the event parses').toBeDefined();
      const paths = pathsOf(base);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), async (path, value) => {
          const draft = await feishuDraft(setAt(base, path, value));
          if (draft) expectValid(buildCard(draft, 2).card);
        }),
        RUNS,
      );
    }
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        const draft = await feishuDraft(groupMention(t, 'ou_bot'));
        if (draft) expectValid(buildCard(draft, 3).card);
      }),
      RUNS,
    );
  });
});
