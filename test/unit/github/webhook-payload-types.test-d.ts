import type { components } from '@octokit/openapi-webhooks-types';
import type { z } from 'zod';
import {
  CheckRunSchema,
  CheckSuiteSchema,
  CommentSchema,
  EnvelopeSchema,
  IssueSchema,
  PullRequestSchema,
  ReviewSchema,
  UserSchema,
} from '../../../src/channels/github/payloads.ts';

/**
 * Issue 46 item 4, checked by `npm run typecheck`: every payload GitHub's published webhook types
 * allow for an event the product handles — every action, since a parser reads the payload before
 * it looks at the action — fits the input type of the zod schema that reads it (the parsers'
 * event schemas are these compositions; `webhook-examples.test.ts` runs the real ones). A field
 * GitHub may send as `null` or leave out that a schema requires stops the compile here.
 */
type S = components['schemas'];
type Keys<P extends string> = Extract<keyof S, `webhook-${P}-${string}`>;
type Of<P extends string> = S[Keys<P>];
/** `true` when every member of `Payload` is an input of `Schema`, else the payloads that are not. */
type Fits<Payload, Schema extends z.ZodType> = [Payload] extends [z.input<Schema>]
  ? true
  : Exclude<Payload, z.input<Schema>>;

const events = {
  issue_comment: EnvelopeSchema.extend({ issue: IssueSchema, comment: CommentSchema }),
  pull_request_review_comment: EnvelopeSchema.extend({
    pull_request: PullRequestSchema,
    comment: CommentSchema,
  }),
  pull_request_review: EnvelopeSchema.extend({ pull_request: PullRequestSchema, review: ReviewSchema }),
  pull_request: EnvelopeSchema.extend({ pull_request: PullRequestSchema, assignee: UserSchema.nullish() }),
  issues: EnvelopeSchema.extend({ issue: IssueSchema, assignee: UserSchema.nullish() }),
  check_run: EnvelopeSchema.extend({ check_run: CheckRunSchema }),
  check_suite: EnvelopeSchema.extend({ check_suite: CheckSuiteSchema }),
};
type E = typeof events;

// `webhook-pull-request-…` also names the review events (and `…-review-requested` is a PR's):
// each is checked under its own event.
type ReviewKeys = `webhook-pull-request-review-${'submitted' | 'edited' | 'dismissed'}`;
type NotPr = ReviewKeys | Keys<'pull-request-review-comment' | 'pull-request-review-thread'>;
const fits: {
  issue_comment: Fits<Of<'issue-comment'>, E['issue_comment']>;
  pull_request_review_comment: Fits<Of<'pull-request-review-comment'>, E['pull_request_review_comment']>;
  pull_request_review: Fits<S[ReviewKeys], E['pull_request_review']>;
  pull_request: Fits<S[Exclude<Keys<'pull-request'>, NotPr>], E['pull_request']>;
  issues: Fits<Of<'issues'>, E['issues']>;
  check_run: Fits<Of<'check-run'>, E['check_run']>;
  check_suite: Fits<Of<'check-suite'>, E['check_suite']>;
} = {
  issue_comment: true,
  pull_request_review_comment: true,
  pull_request_review: true,
  pull_request: true,
  issues: true,
  check_run: true,
  check_suite: true,
};
void fits;
