import { z } from 'zod';
import { ignored, invalidEvent, type ParseOutcome } from '../../cards/parse-outcome.ts';
import type { AppEvent } from './app-needs.ts';
import type { ParseContext } from './draft.ts';
import { parseCheckRun, parseCheckSuite } from './parse-checks.ts';
import { type Parser, parseIssueComment, parseReview, parseReviewComment } from './parse-comments.ts';
import { parseIssues, parsePullRequest } from './parse-items.ts';

/** One parser per event the App subscribes to (`APP_NEEDS`): the compiler keeps the two equal. */
const PARSERS: Record<AppEvent, Parser> = {
  issue_comment: parseIssueComment,
  pull_request_review_comment: parseReviewComment,
  pull_request_review: parseReview,
  pull_request: parsePullRequest,
  issues: parseIssues,
  check_run: parseCheckRun,
  check_suite: parseCheckSuite,
};

/**
 * Turns one verified GitHub webhook into a card draft (R-A2, R-A3), or says why not: event types
 * and actions we don't handle are `ignored` (still answered 202), a payload of an unexpected
 * shape is `invalid` (400). `eventId` is the `X-GitHub-Delivery` id, the dedupe key.
 */
export function parseGitHubEvent(
  event: string,
  eventId: string,
  payload: unknown,
  pctx: ParseContext,
): ParseOutcome {
  const parse = Object.hasOwn(PARSERS, event) ? PARSERS[event as AppEvent] : undefined;
  if (!parse) return ignored(`event ${event}`);
  try {
    return parse(payload, eventId, pctx);
  } catch (err) {
    if (err instanceof z.ZodError) {
      return invalidEvent(`unexpected ${event} payload: ${z.prettifyError(err)}`);
    }
    throw err;
  }
}
