import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRouteOutcome, type RouteOutcome } from '../../src/router/route-outcome.ts';
import { hasAcked } from '../../src/tickets/acks.ts';
import { getTicket } from '../../src/tickets/ticket-store.ts';
import { ticketOpenedBy } from '../integration/routing/helpers.ts';
import { startTestApp, type TestApp, waitFor } from '../kit/app.ts';
import { type FakeGitHub, startFakeGitHub } from '../kit/fake-github.ts';
import { type FakeLlm, startFakeLlm } from '../kit/fake-llm.ts';
import { type GitHubUserLike, githubPayloads, sendGitHubEvent } from '../kit/github-webhook.ts';
import { roleOf } from '../kit/scripted-model.ts';

export const SECRET = 'faults-webhook-secret';
export const TOKEN = 'ghp_faults_token';

export interface GitHubWorld {
  app: TestApp;
  gh: FakeGitHub;
  llm: FakeLlm;
  /** POSTs an `issue_comment.created` on `acme/widgets#number`; resolves to the card id. */
  comment(author: GitHubUserLike | string, body: string, number?: number): Promise<string>;
  /** Waits until the card was routed and returns how. */
  routed(cardId: string): Promise<RouteOutcome>;
  /**
   * Comments a request on `acme/widgets#number` and waits for the ticket it opened to acknowledge
   * it and end that turn; resolves to the ticket's id (issue 20: ids from what happened, never assumed).
   */
  open(author: GitHubUserLike | string, body: string, number?: number): Promise<string>;
  /** Model requests so far, by session (and, for executors, ticket). */
  requests(role: 'main' | 'executor', ticketId?: string): number;
  /** The bot's comments on `acme/widgets#number`. */
  botComments(number?: number): string[];
  close(): Promise<void>;
}

let commentIds = 50_000;

/** The product in token mode against a fake GitHub and a scripted model (issue 8 fault tests). */
export async function startGitHubWorld(env: Record<string, string> = {}): Promise<GitHubWorld> {
  const root = mkdtempSync(join(tmpdir(), 'sy-faults-'));
  const llm = await startFakeLlm();
  const gh = await startFakeGitHub({ token: TOKEN });
  const app = await startTestApp({
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: gh.url,
    GITHUB_BOT_LOGIN: gh.botLogin,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'sk-faults',
    WORKSPACE_DIR: join(root, 'ws'),
    ...env,
  });
  const world: GitHubWorld = {
    app,
    gh,
    llm,
    async comment(author, body, number = 7) {
      const payload = githubPayloads.mentionComment({ author, body, number, commentId: ++commentIds });
      const res = await sendGitHubEvent(app.url, 'issue_comment', payload, { secret: SECRET });
      if (res.status !== 202) throw new Error(`webhook answered ${res.status}`);
      return ((await res.json()) as { card: string }).card;
    },
    routed(cardId) {
      // A failing permission look-up is retried with back-off inside the routing job: allow for it.
      return waitFor(() => loadRouteOutcome(app.ctx, cardId), `routing of ${cardId}`, 15_000);
    },
    async open(author, body, number) {
      const card = await world.comment(author, body, number);
      const ticket = await ticketOpenedBy(app.ctx, card);
      await ticketAcked(world, ticket);
      // The acknowledging turn ends with one more request (after its tool results): a test that
      // counts requests from here must not count that one (issue 20: no earlier test gives it time).
      const { executor } = app.ctx.queues;
      await waitFor(
        async () => (await executor.getActiveCount()) + (await executor.getWaitingCount()) === 0,
        `${ticket}'s first turn to end`,
        20_000,
      );
      return ticket;
    },
    requests: (role, ticketId) =>
      llm.requests.filter(
        (r) =>
          roleOf(r) === role && (!ticketId || JSON.stringify(r.messages).includes(`Ticket ${ticketId}:`)),
      ).length,
    botComments: (number = 7) => gh.comments.filter((c) => c.number === number).map((c) => c.body),
    async close() {
      await app.close();
      await llm.close();
      await gh.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return world;
}

/** Waits for the ticket to exist and its opening request to be acknowledged. */
export async function ticketAcked(w: GitHubWorld, ticketId: string): Promise<void> {
  await waitFor(() => getTicket(w.app.ctx, ticketId), `ticket ${ticketId}`);
  await waitFor(() => hasAcked(w.app.ctx, ticketId), `${ticketId}'s acknowledgement`);
}

/** Lets queued jobs run, for assertions that something did *not* happen. */
export const settle = (ms = 600) => new Promise((r) => setTimeout(r, ms));
