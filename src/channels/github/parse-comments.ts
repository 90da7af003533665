import type { Ref } from '../../cards/card.ts';
import { itemOpening } from '../../cards/card-context.ts';
import { ignored, type ParseOutcome } from '../../cards/parse-outcome.ts';
import { sanitizeUntrusted } from '../../safety/sanitize-text.ts';
import { textAuthorOf } from './author.ts';
import { conversationOf, githubDraft, headRefs, itemRef, mergeRefs, type ParseContext } from './draft.ts';
import { mentionsBot } from './mentions.ts';
import { CommentSchema, EnvelopeSchema, IssueSchema, PullRequestSchema, ReviewSchema } from './payloads.ts';

/** Deleting a comment carries nothing to act on; edits are kept as cards but never requests. */
const COMMENT_ACTIONS = new Set(['created', 'edited']);

const IssueCommentEvent = EnvelopeSchema.extend({ issue: IssueSchema, comment: CommentSchema });
const ReviewCommentEvent = EnvelopeSchema.extend({ pull_request: PullRequestSchema, comment: CommentSchema });
const ReviewEvent = EnvelopeSchema.extend({ pull_request: PullRequestSchema, review: ReviewSchema });

export type Parser = (payload: unknown, eventId: string, pctx: ParseContext) => ParseOutcome;

/** `issue_comment`: a comment on an issue or on a PR's conversation tab. */
export const parseIssueComment: Parser = (payload, eventId, pctx) => {
  const p = IssueCommentEvent.parse(payload);
  if (!COMMENT_ACTIONS.has(p.action ?? '')) return ignored(`issue_comment.${p.action}`);
  const repo = p.repository.full_name;
  const isPullRequest = Boolean(p.issue.pull_request);
  const text = sanitizeUntrusted(p.comment.body ?? '');
  const author = textAuthorOf(p.comment.user, pctx.botLogin, p.comment.author_association);
  return githubDraft({
    kind: 'issue_comment',
    eventId,
    action: p.action,
    author,
    origin: {
      source: 'github',
      repo,
      number: p.issue.number,
      isPullRequest,
      commentId: p.comment.id,
      commentType: 'issue',
    },
    conversation: conversationOf(repo, p.issue.number),
    request: isRequest(author.type, p.action === 'created', text, pctx),
    refs: mergeRefs([itemRef(repo, p.issue.number, isPullRequest)], text, repo, pctx),
    title: p.issue.title,
    text,
    // R-H6: "@bot please handle this" means the issue; its opening travels with the comment.
    context: { item: itemOpening(issueAuthor(p.issue), p.issue.body) },
  });
};

const issueAuthor = (i: { user: { login: string }; author_association?: string | undefined }) =>
  i.author_association ? `${i.user.login} (${i.author_association})` : i.user.login;

/** `pull_request_review_comment`: a line comment, possibly a reply inside a review thread. */
export const parseReviewComment: Parser = (payload, eventId, pctx) => {
  const p = ReviewCommentEvent.parse(payload);
  if (!COMMENT_ACTIONS.has(p.action ?? '')) return ignored(`pull_request_review_comment.${p.action}`);
  const repo = p.repository.full_name;
  const pr = p.pull_request;
  const text = sanitizeUntrusted(p.comment.body ?? '');
  const author = textAuthorOf(p.comment.user, pctx.botLogin, p.comment.author_association);
  const replyTo = p.comment.in_reply_to_id === undefined ? undefined : `comment:${p.comment.in_reply_to_id}`;
  const structural: Ref[] = [itemRef(repo, pr.number, true), ...headRefs(repo, pr.head)];
  if (replyTo) structural.push({ type: 'message', id: replyTo });
  return githubDraft({
    kind: 'review_comment',
    eventId,
    action: p.action,
    author,
    origin: {
      source: 'github',
      repo,
      number: pr.number,
      isPullRequest: true,
      commentId: p.comment.id,
      commentType: 'review',
    },
    conversation: conversationOf(repo, pr.number),
    replyTo,
    request: isRequest(author.type, p.action === 'created', text, pctx),
    refs: mergeRefs(structural, text, repo, pctx),
    title: pr.title,
    text,
    facts: { path: p.comment.path ?? null },
  });
};

/** `pull_request_review`: a submitted review (its line comments arrive as their own events). */
export const parseReview: Parser = (payload, eventId, pctx) => {
  const p = ReviewEvent.parse(payload);
  if (p.action !== 'submitted' && p.action !== 'dismissed') return ignored(`pull_request_review.${p.action}`);
  const repo = p.repository.full_name;
  const pr = p.pull_request;
  const text = sanitizeUntrusted(p.review.body ?? '');
  const author = textAuthorOf(p.review.user, pctx.botLogin, p.review.author_association);
  return githubDraft({
    kind: 'review',
    eventId,
    action: p.action,
    author,
    origin: {
      source: 'github',
      repo,
      number: pr.number,
      isPullRequest: true,
      commentId: p.review.id,
      commentType: 'review_body',
    },
    conversation: conversationOf(repo, pr.number),
    request: isRequest(author.type, p.action === 'submitted', text, pctx),
    refs: mergeRefs([itemRef(repo, pr.number, true), ...headRefs(repo, pr.head)], text, repo, pctx),
    title: pr.title,
    text,
    facts: { state: p.review.state.toLowerCase() },
  });
};

/**
 * A person's new comment or review that @-mentions the bot is a request (R-B8). Bots and the bot
 * itself never request anything (R-A2: no reply loops), and edits don't re-trigger work.
 */
export function isRequest(type: string, creating: boolean, text: string, pctx: ParseContext): boolean {
  return type === 'person' && creating && mentionsBot(text, pctx.botLogin);
}
