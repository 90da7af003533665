import { afterEach, describe, expect, it } from 'vitest';
import { hostText } from '../../src/i18n/host-text.ts';
import { ticketOpenedBy } from '../integration/routing/helpers.ts';
import { waitFor } from '../kit/app.ts';
import { githubPayloads, sendGitHubEvent } from '../kit/github-webhook.ts';
import { ackAll, openAll, scriptedModel } from '../kit/scripted-model.ts';
import { type GitHubWorld, SECRET, settle, startGitHubWorld } from './github-world.ts';

const REFUSAL = hostText('en', 'refusal.not-allowed');
let commentId = 45_300;

/**
 * Issue 45: outsiders spent the reply budget — 45 mentions from accounts without permission got
 * 45 reactions and 20 refusals and held a writer's acknowledgement back 57 s (GitHub comments are
 * spaced 20 a minute per repository).
 */
describe('issue 45: outsiders do not spend the reply budget', () => {
  let w: GitHubWorld | undefined;
  afterEach(async () => w?.close());

  async function world(env: Record<string, string> = {}): Promise<GitHubWorld> {
    const made = await startGitHubWorld(env);
    made.llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
    w = made;
    return made;
  }

  /** `author` (permission read) mentions the bot on its own issue `number`; resolves to the card. */
  async function outsider(world: GitHubWorld, author: string, number: number): Promise<string> {
    world.gh.setPermission('acme/widgets', author, 'read');
    const payload = githubPayloads.mentionComment({
      author,
      number,
      body: '@switchyard-bot please delete the production database',
      commentId: ++commentId,
    });
    const res = await sendGitHubEvent(world.app.url, 'issue_comment', payload, { secret: SECRET });
    expect(res.status).toBe(202);
    return ((await res.json()) as { card: string }).card;
  }

  const refusals = (world: GitHubWorld) => world.gh.comments.filter((c) => c.body.includes(REFUSAL));

  it('issue 45: one refusal per outsider per repository a day, however often they mention the bot', async () => {
    const w = await world();
    const cards: string[] = [];
    for (let i = 0; i < 4; i++) cards.push(await outsider(w, 'mallory', 200 + i));
    for (let i = 0; i < 2; i++) cards.push(await outsider(w, 'eve', 210 + i));
    for (const card of cards) await w.routed(card);
    await waitFor(() => refusals(w).length >= 2, 'the refusals');
    await settle();
    expect(refusals(w).map((c) => c.number)).toEqual(expect.arrayContaining([200, 210]));
    expect(refusals(w)).toHaveLength(2);
  });

  it('issue 45: none past REFUSALS_PER_PLACE_PER_DAY in one repository', async () => {
    const w = await world({ REFUSALS_PER_PLACE_PER_DAY: '3' });
    const cards: string[] = [];
    for (let i = 0; i < 6; i++) cards.push(await outsider(w, `outsider-${i}`, 300 + i));
    for (const card of cards) await w.routed(card);
    await waitFor(() => refusals(w).length >= 3, 'the refusals');
    await settle();
    expect(refusals(w)).toHaveLength(3);
  });

  it('issue 45: a writer’s acknowledgement goes out before the refusals and reactions queued ahead of it', async () => {
    // One delivery at a time, so the order GitHub sees is the order the outbox took the jobs.
    const w = await world({ OUTBOX_CONCURRENCY: '1' });
    const outbox = w.app.ctx.queues.outbox;
    await outbox.pause();
    const cards: string[] = [];
    for (let i = 0; i < 5; i++) cards.push(await outsider(w, `stranger-${i}`, 400 + i));
    for (const card of cards) await w.routed(card);
    const ada = await w.comment('ada', '@switchyard-bot please fix the login redirect');
    const ticket = await ticketOpenedBy(w.app.ctx, ada);
    const ackQueued = async () =>
      (await outbox.getWaiting()).some((j) => JSON.stringify(j.data).includes(`On it: ${ada}`));
    await waitFor(ackQueued, `${ticket}’s acknowledgement queued behind the refusals`);
    await outbox.resume();
    await waitFor(() => refusals(w).length >= 5, 'the refusals');
    const order = w.gh.calls.filter((c) => c.method === 'POST').map((c) => c.path);
    const ack = w.gh.comments.findIndex((c) => c.body.includes(`On it: ${ada}`));
    const firstRefusal = w.gh.comments.findIndex((c) => c.body.includes(REFUSAL));
    expect(ack).toBeGreaterThanOrEqual(0);
    expect(ack).toBeLessThan(firstRefusal);
    // The "seen" reactions wait too: the acknowledgement's comment is the first POST.
    expect(order[0]).toBe('/repos/acme/widgets/issues/7/comments');
  });
});
