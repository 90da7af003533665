import type { z } from 'zod';
import { itemOpening } from '../../cards/card-context.ts';
import { ignored } from '../../cards/parse-outcome.ts';
import { sanitizeUntrusted } from '../../safety/sanitize-text.ts';
import { authorOf, isBotLogin, textAuthorOf } from './author.ts';
import { conversationOf, githubDraft, headRefs, itemRef, mergeRefs } from './draft.ts';
import { isRequest, type Parser } from './parse-comments.ts';
import { EnvelopeSchema, type GitHubUser, IssueSchema, PullRequestSchema, UserSchema } from './payloads.ts';

/** Actions that change what a ticket may care about; labels, locks, pins and the like are noise. */
const ISSUE_ACTIONS = new Set(['opened', 'edited', 'closed', 'reopened', 'assigned', 'unassigned']);
const PR_ACTIONS = new Set([
  ...ISSUE_ACTIONS,
  'synchronize',
  'ready_for_review',
  'converted_to_draft',
  'review_requested',
]);

const IssuesEvent = EnvelopeSchema.extend({ issue: IssueSchema, assignee: UserSchema.nullish() });
const PullRequestEvent = EnvelopeSchema.extend({
  pull_request: PullRequestSchema,
  assignee: UserSchema.nullish(),
});

/**
 * An item event is a request when a person opens it mentioning the bot, or assigns it to the bot
 * (R-B8); never when a bot does either (R-A2).
 */
function itemRequest(
  p: z.infer<typeof EnvelopeSchema> & { assignee?: { login: string } | null | undefined },
  authorType: string,
  text: string,
  botLogin: string,
): boolean {
  if (p.action === 'assigned') {
    return authorType === 'person' && Boolean(p.assignee && isBotLogin(p.assignee.login, botLogin));
  }
  return isRequest(authorType, p.action === 'opened', text, { botLogin });
}

/** Actions that are the sender's own act on the item, not a change of its text (R-B8). */
const SENDER_ACTS = new Set(['assigned', 'unassigned']);

type Item = {
  body?: string | null | undefined;
  user: GitHubUser | null;
  author_association?: string | undefined;
};

/**
 * Issue 45: who a card of an item event is from, and its text. The item's text is its author's:
 * an edit, close or reopen by a writer keeps the author's standing (`textAuthorOf`). An
 * assignment is the sender's request (R-B8); when they did not write the item, its body travels
 * as the item's opening under its own author (untrusted context), never as the sender's words.
 */
function itemVoice(p: { action?: string | undefined; sender: GitHubUser }, item: Item, botLogin: string) {
  const body = sanitizeUntrusted(item.body ?? '');
  const writer = textAuthorOf(item.user, botLogin, item.author_association);
  if (!SENDER_ACTS.has(p.action ?? '') || p.sender.login.toLowerCase() === writer.id.toLowerCase())
    return { author: writer, text: body };
  const opening = itemOpening(writer.role ? `${writer.id} (${writer.role})` : writer.id, item.body);
  return { author: authorOf(p.sender, botLogin), text: '', context: { item: opening } };
}

/** `issues`: opened, edited, closed, reopened, (un)assigned. */
export const parseIssues: Parser = (payload, eventId, pctx) => {
  const p = IssuesEvent.parse(payload);
  if (!ISSUE_ACTIONS.has(p.action ?? '')) return ignored(`issues.${p.action}`);
  const repo = p.repository.full_name;
  const { issue } = p;
  const { author, text, context } = itemVoice(p, issue, pctx.botLogin);
  return githubDraft({
    kind: 'issue',
    eventId,
    action: p.action,
    author,
    origin: { source: 'github', repo, number: issue.number, isPullRequest: false },
    conversation: conversationOf(repo, issue.number),
    request: itemRequest(p, author.type, text, pctx.botLogin),
    refs: mergeRefs([itemRef(repo, issue.number, false)], text, repo, pctx),
    title: issue.title,
    text,
    context,
    facts: { state: issue.state ?? null, assignee: p.assignee?.login ?? null },
  });
};

/** `pull_request`: opened, pushed to (`synchronize`), closed/merged, draft changes, assignments. */
export const parsePullRequest: Parser = (payload, eventId, pctx) => {
  const p = PullRequestEvent.parse(payload);
  if (!PR_ACTIONS.has(p.action ?? '')) return ignored(`pull_request.${p.action}`);
  const repo = p.repository.full_name;
  const pr = p.pull_request;
  const { author, text, context } = itemVoice(p, pr, pctx.botLogin);
  return githubDraft({
    kind: 'pull_request',
    eventId,
    action: p.action,
    author,
    origin: { source: 'github', repo, number: pr.number, isPullRequest: true },
    conversation: conversationOf(repo, pr.number),
    request: itemRequest(p, author.type, text, pctx.botLogin),
    refs: mergeRefs([itemRef(repo, pr.number, true), ...headRefs(repo, pr.head)], text, repo, pctx),
    title: pr.title,
    text,
    context,
    facts: {
      state: pr.state ?? null,
      draft: pr.draft ?? false,
      merged: pr.merged ?? false,
      head: pr.head.ref,
      base: pr.base.ref,
      assignee: p.assignee?.login ?? null,
    },
  });
};
