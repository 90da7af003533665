import type { Ref } from '../../cards/card.ts';
import { authorOf } from './author.ts';
import { conversationOf, githubDraft, ignored, type ParseContext, type ParseOutcome } from './draft.ts';
import type { Parser } from './parse-comments.ts';
import { CheckRunSchema, CheckSuiteSchema, EnvelopeSchema } from './payloads.ts';

const CheckRunEvent = EnvelopeSchema.extend({ check_run: CheckRunSchema });
const CheckSuiteEvent = EnvelopeSchema.extend({ check_suite: CheckSuiteSchema });

interface CheckFacts {
  repo: string;
  sha: string;
  branch: string | null | undefined;
  prs: number[];
}

/** A check is about its commit, its branch and every PR it ran for (R-B2 references). */
function checkRefs({ repo, sha, branch, prs }: CheckFacts): Ref[] {
  const refs: Ref[] = prs.map((number) => ({ type: 'pr', repo, number }));
  if (/^[0-9a-f]{7,40}$/.test(sha)) refs.push({ type: 'commit', sha });
  if (branch) refs.push({ type: 'branch', repo, name: branch });
  return refs;
}

/** One PR → that PR's conversation; otherwise the branch (or commit) the check ran on. */
function checkPlace(c: CheckFacts) {
  const [only] = c.prs;
  const number = c.prs.length === 1 ? only : undefined;
  if (number === undefined) {
    return {
      origin: { source: 'github' as const, repo: c.repo, isPullRequest: false },
      conversation: `${c.repo}@${c.branch ?? c.sha}`,
    };
  }
  return {
    origin: { source: 'github' as const, repo: c.repo, isPullRequest: true, number },
    conversation: conversationOf(c.repo, number),
  };
}

/**
 * `check_run` / `check_suite` are automatic feedback (R-A2, R-D2): only completed ones become
 * cards, with the outcome in `facts`, and they are never requests whoever sent them.
 */
export const parseCheckRun: Parser = (payload, eventId, pctx) => {
  const p = CheckRunEvent.parse(payload);
  if (p.action !== 'completed') return ignored(`check_run.${p.action}`);
  const run = p.check_run;
  const c: CheckFacts = {
    repo: p.repository.full_name,
    sha: run.head_sha,
    branch: run.check_suite?.head_branch,
    prs: run.pull_requests.map((x) => x.number),
  };
  const text = [run.output?.title, run.output?.summary].filter(Boolean).join('\n\n');
  return checkDraft(eventId, p, pctx, c, text, run.name, {
    name: run.name,
    status: run.status,
    conclusion: run.conclusion ?? null,
    app: run.app?.slug ?? null,
    head_sha: run.head_sha,
    details_url: run.details_url ?? run.html_url ?? null,
  });
};

export const parseCheckSuite: Parser = (payload, eventId, pctx) => {
  const p = CheckSuiteEvent.parse(payload);
  if (p.action !== 'completed') return ignored(`check_suite.${p.action}`);
  const suite = p.check_suite;
  const c: CheckFacts = {
    repo: p.repository.full_name,
    sha: suite.head_sha,
    branch: suite.head_branch,
    prs: suite.pull_requests.map((x) => x.number),
  };
  const name = suite.app?.name ?? suite.app?.slug ?? 'check suite';
  return checkDraft(eventId, p, pctx, c, '', name, {
    name,
    status: suite.status ?? null,
    conclusion: suite.conclusion ?? null,
    app: suite.app?.slug ?? null,
    head_sha: suite.head_sha,
  });
};

function checkDraft(
  eventId: string,
  p: { action?: string | undefined; sender: { login: string; type?: string | undefined } },
  pctx: ParseContext,
  c: CheckFacts,
  text: string,
  title: string,
  facts: Record<string, string | null>,
): ParseOutcome {
  return githubDraft({
    kind: 'check',
    eventId,
    action: p.action,
    author: authorOf(p.sender, pctx.botLogin),
    ...checkPlace(c),
    request: false,
    refs: checkRefs(c),
    title,
    text,
    facts,
  });
}
