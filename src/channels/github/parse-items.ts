import type { z } from 'zod';
import { ignored } from '../../cards/parse-outcome.ts';
import { sanitizeUntrusted } from '../../safety/sanitize-text.ts';
import { authorOf, isBotLogin } from './author.ts';
import { conversationOf, githubDraft, headRefs, itemRef, mergeRefs } from './draft.ts';
import { isRequest, type Parser } from './parse-comments.ts';
import { EnvelopeSchema, IssueSchema, PullRequestSchema, UserSchema } from './payloads.ts';

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

/** `issues`: opened, edited, closed, reopened, (un)assigned. */
export const parseIssues: Parser = (payload, eventId, pctx) => {
  const p = IssuesEvent.parse(payload);
  if (!ISSUE_ACTIONS.has(p.action ?? '')) return ignored(`issues.${p.action}`);
  const repo = p.repository.full_name;
  const { issue } = p;
  const text = sanitizeUntrusted(issue.body ?? '');
  const association = p.sender.login === issue.user.login ? issue.author_association : undefined;
  const author = authorOf(p.sender, pctx.botLogin, association);
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
    facts: { state: issue.state ?? null, assignee: p.assignee?.login ?? null },
  });
};

/** `pull_request`: opened, pushed to (`synchronize`), closed/merged, draft changes, assignments. */
export const parsePullRequest: Parser = (payload, eventId, pctx) => {
  const p = PullRequestEvent.parse(payload);
  if (!PR_ACTIONS.has(p.action ?? '')) return ignored(`pull_request.${p.action}`);
  const repo = p.repository.full_name;
  const pr = p.pull_request;
  const text = sanitizeUntrusted(pr.body ?? '');
  const association = p.sender.login === pr.user.login ? pr.author_association : undefined;
  const author = authorOf(p.sender, pctx.botLogin, association);
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
