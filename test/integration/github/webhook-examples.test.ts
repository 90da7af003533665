import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TriggerCard } from '../../../src/cards/card.ts';
import { loadCard } from '../../../src/cards/ingest.ts';
import { APP_EVENTS } from '../../../src/channels/github/app-needs.ts';
import type { TestApp } from '../../kit/app.ts';
import type { FakeGitHub } from '../../kit/fake-github.ts';
import { closeGitHubTestWorld, startGitHubTestWorld } from '../../kit/github-app.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';

const SECRET = 'gh-examples-secret';

/** `@octokit/webhooks-examples`: payloads GitHub sent, per event, as its docs show them. */
interface ExampleSet {
  name: string;
  examples: Record<string, unknown>[];
}
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as ExampleSet[];

/**
 * Issue 46 item 4: what GitHub sends is taken. Every published example of every event the App
 * subscribes to reaches the webhook as a signed delivery and is answered 202, never 400 (a 400 is
 * an event lost: GitHub does not retry it). A comment whose author's account was deleted
 * (`user: null`, GitHub's schema allows it) is a card from `ghost`, who may not steer.
 */
describe('GitHub webhook payloads as GitHub sends them (issue 46)', () => {
  let gh: FakeGitHub;
  let app: TestApp;
  beforeEach(async () => {
    ({ gh, app } = await startGitHubTestWorld(SECRET));
  });
  afterEach(() => closeGitHubTestWorld({ gh, app }));

  const send = (event: string, payload: unknown) =>
    sendGitHubEvent(app.url, event, payload, { secret: SECRET });

  it('every example of every subscribed event is answered 202', async () => {
    const events = new Set<string>(APP_EVENTS);
    const sets = examples.filter((s) => events.has(s.name));
    // Each subscribed event has examples: a renamed event would otherwise pass with none.
    expect(new Set(sets.map((s) => s.name))).toEqual(events);
    const answers = await Promise.all(
      sets.flatMap((set) =>
        set.examples.map(async (payload, i) => {
          const res = await send(set.name, payload);
          return res.status === 202 ? '' : `${set.name}[${i}] ${payload.action}: ${await res.text()}`;
        }),
      ),
    );
    expect(answers.filter(Boolean)).toEqual([]);
    expect(sets.reduce((n, s) => n + s.examples.length, 0)).toBeGreaterThan(50);
  });

  it('a comment by a deleted account (user: null) is a card from ghost, who may not steer', async () => {
    const payload = P.mentionComment({ author: 'grace', commentId: 46_001, body: 'a remark' });
    // A writer edits the comment of an account deleted since: GitHub sends its `user` as null.
    const edited = {
      ...payload,
      action: 'edited',
      comment: { ...payload.comment, user: null, author_association: 'MEMBER' },
    };
    const res = await send('issue_comment', edited);
    expect(res.status).toBe(202);
    const { card: id } = (await res.json()) as { card: string };
    const card = (await loadCard(app.ctx, id)) as TriggerCard;
    expect(card.author).toMatchObject({ id: 'ghost', type: 'person', permission: 'none' });
    // The comment's association belongs to nobody now: never a writer's role.
    expect(card.author.role).toBeUndefined();
  });
});
