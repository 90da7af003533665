import type { Ref } from '../../cards/card.ts';
import { ignored, type ParseOutcome } from '../../cards/parse-outcome.ts';
import { authorOf } from './author.ts';
import { conversationOf, githubDraft, type ParseContext } from './draft.ts';
import type { Parser } from './parse-comments.ts';
import { type CheckPulls, CheckRunSchema, CheckSuiteSchema, EnvelopeSchema } from './payloads.ts';

const CheckRunEvent = EnvelopeSchema.extend({ check_run: CheckRunSchema });
const CheckSuiteEvent = EnvelopeSchema.extend({ check_suite: CheckSuiteSchema });

interface CheckFacts {
  repo: string;
  sha: string;
  branch: string | null | undefined;
  /** The branch as a reference: set only when its head is in the base repository. */
  refBranch: string | undefined;
  prs: number[];
}

type RepoRef = { id?: number | undefined; url?: string | undefined } | null | undefined;
const sameRepo = (a: RepoRef, b: RepoRef): boolean =>
  Boolean(a && b && (a.id !== undefined ? a.id === b.id : a.url !== undefined && a.url === b.url));

/**
 * Issue 14: the branch a check ran on names a ticket's branch only when GitHub shows its head in
 * the base repository — every PR entry's head repository is the base's. A fork's check (GitHub
 * lists no PR for it, or one whose head is elsewhere) could carry any branch name, so it never
 * attaches by branch; it still attaches by commit or by PR.
 */
function headBranchOf(branch: string | null | undefined, pulls: CheckPulls): string | undefined {
  if (!branch || !pulls.length) return undefined;
  return pulls.every((p) => sameRepo(p.head?.repo, p.base?.repo)) ? branch : undefined;
}

/** A check is about its commit, its branch and every PR it ran for (R-B2 references). */
function checkRefs({ repo, sha, refBranch: branch, prs }: CheckFacts): Ref[] {
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
    refBranch: headBranchOf(run.check_suite?.head_branch, run.pull_requests),
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
    refBranch: headBranchOf(suite.head_branch, suite.pull_requests),
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
