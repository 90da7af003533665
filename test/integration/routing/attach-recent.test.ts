import { describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import { referenceHolds } from '../../../src/router/reference-holds.ts';
import { addTicketRefs } from '../../../src/tickets/refs.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { ackAll, cardsIn, continues, roleOf } from '../../kit/scripted-model.ts';
import { botMessages, localMessage, openTicketIn, routedOf, send, ticketCardIds } from './helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const FRESH = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const STALE = 'f1e2d3c4b5a60718293a4b5c6d7e8f9012345678';

describe('"recent" means recent: a commit attaches by code only within ATTACH_RECENT_DAYS (R-B2)', () => {
  const w = useModelApp();

  it('R-B2: a message naming a commit its ticket pushed today is answered there; one naming a commit pushed 20 days ago goes to the main session', async () => {
    const mainSaw: string[] = [];
    w.llm.respond((req: RecordedRequest) => {
      if (roleOf(req) === 'executor') return continues(req) ? text('ok') : ackAll(req);
      if (continues(req)) return text('done');
      mainSaw.push(...cardsIn(req));
      return toolCalls([
        'orchestrator_route',
        { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) },
      ]);
    });
    const ctx = w.app.ctx;
    const ticket = await openTicketIn(ctx);
    await addTicketRefs(ctx, ticket, [`commit:${FRESH}`]);
    await addTicketRefs({ ...ctx, now: () => ctx.now() - 20 * DAY_MS }, ticket, [`commit:${STALE}`]);

    const fresh = await send(ctx, {
      ...localMessage(`@bot the build broke at ${FRESH.slice(0, 7)}, please look`),
      refs: [{ type: 'commit', sha: FRESH }],
    });
    const stale = await send(ctx, {
      ...localMessage(`@bot the build broke at ${STALE.slice(0, 7)}, please look`),
      refs: [{ type: 'commit', sha: STALE }],
    });

    // The fresh one reaches the ticket by code, and its executor answers it.
    await waitFor(
      async () => (await botMessages(ctx)).find((m) => m.op === 'local.reply' && m.text.includes(fresh)),
      'the answer to the fresh commit’s message',
    );
    expect(await routedOf(ctx, fresh)).toEqual({ kind: 'attached', tickets: [ticket] });
    // The stale one is a candidate: the main session is asked, and code attached nothing.
    await waitFor(() => mainSaw.includes(stale), 'the main session to be asked about the stale one');
    expect(await routedOf(ctx, stale)).toEqual({ kind: 'candidate' });
    expect(mainSaw).not.toContain(fresh);
    expect(await ticketCardIds(ctx, ticket)).not.toContain(stale);
    expect((await botMessages(ctx)).some((m) => m.text.includes(stale))).toBe(false);
  });

  it('P-66: the main session’s attach check takes a commit or branch named in the text only when its ticket took it recently', async () => {
    w.llm.respond((req: RecordedRequest) =>
      continues(req)
        ? text('done')
        : toolCalls([
            'orchestrator_route',
            { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) },
          ]),
    );
    const ctx = w.app.ctx;
    const ticket = await openTicketIn(ctx);
    const weeksAgo = { ...ctx, now: () => ctx.now() - 20 * DAY_MS };
    await addTicketRefs(ctx, ticket, [`commit:${FRESH}`, 'branch:acme/web:sy/fresh-fix']);
    await addTicketRefs(weeksAgo, ticket, [`commit:${STALE}`, 'branch:acme/web:sy/old-fix']);
    // No reference on the card: only its text names the change, as a person would in a chat.
    const says = async (words: string) => {
      const card = await loadCard(ctx, await send(ctx, localMessage(words, { request: false })));
      if (!card) throw new Error('no card');
      return referenceHolds(ctx, card, ticket);
    };
    expect(await says(`the build broke at ${FRESH.slice(0, 7)}`)).toBe(
      `commit ${FRESH.slice(0, 7)} named in the text`,
    );
    expect(await says('is sy/fresh-fix merged?')).toBe('branch sy/fresh-fix named in the text');
    expect(await says(`the build broke at ${STALE.slice(0, 7)}`)).toBeUndefined();
    expect(await says('is sy/old-fix merged?')).toBeUndefined();
  });
});
