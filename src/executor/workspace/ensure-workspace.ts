import { stat } from 'node:fs/promises';
import { splitRepo } from '../../channels/github/client.ts';
import { refKey } from '../../tickets/ref-key.ts';
import { addTicketRefs, updateTicket } from '../../tickets/ticket-store.ts';
import type { TurnScope } from '../turn-scope.ts';
import { involvesForkCode, ticketPulls } from './fork-code.ts';
import { cloneUrlProblem, gitProtocols } from './git-policy.ts';
import { githubAccess } from './github-access.ts';
import { makeCheckout } from './make-checkout.ts';
import { mkdirPrivate } from './private-dir.ts';
import { refuseUnboundRepo } from './refuse-unbound-repo.ts';
import { chooseRepo, mayWorkIn } from './repo-choice.ts';
import type { StepToRestore } from './restore-step.ts';
import { readStepMarker, writeStepMarker } from './step-marker.ts';
import { branchName, workspacePaths } from './workspace.ts';
import { loadWorkspace, saveWorkspace, type Workspace } from './workspace-record.ts';
import { loadWorkspaceStep, workspaceStepId } from './workspace-step-record.ts';

export type EnsureResult = { ok: true; ws: Workspace; login: string } | { ok: false; why: string };

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/**
 * The ticket's checkout, made on first use (issue 4 "Workspace"): the repository is chosen
 * (`chooseRepo`; a Feishu ticket's only among those bound to its chat, issue 31) and recorded on
 * the ticket, its `clone_url` comes from the API (and must pass the protocol allow-list, R-H4),
 * and the ticket's branch is checked out from the host's mirror — the pushed one when it exists
 * (a later turn on another machine), else a new one from the default branch.
 * The branch is indexed on the ticket, so pushes and checks on it find it (R-B2). A checkout
 * is this machine's only at its own path and at the last recorded step (issue 19): otherwise
 * (another worker ran the turn's last steps, or died mid-turn) it is made again and restored to
 * that step, uncommitted changes included.
 */
export function ensureWorkspace(scope: TurnScope): Promise<EnsureResult> {
  // Issue 28: reads of one answer run at the same time; the first makes the checkout and the
  // others wait for it instead of making it again beside it (one turn per ticket holds the lock).
  const key = workspacePaths(scope.rt.ctx, scope.ticket.id).dir;
  const running = inFlight.get(key);
  if (running) return running;
  const made = ensureWorkspaceOnce(scope).finally(() => inFlight.delete(key));
  inFlight.set(key, made);
  return made;
}

/** Checkouts being made or checked in this process, by directory. */
const inFlight = new Map<string, Promise<EnsureResult>>();

async function ensureWorkspaceOnce(scope: TurnScope): Promise<EnsureResult> {
  const { ctx } = scope.rt;
  const github = githubAccess(ctx);
  const login = await github.login();
  const known = await loadWorkspace(ctx, scope.ticket.id);
  if (known && !(await mayWorkIn(ctx, scope.ticket, known.repo)))
    return {
      ok: false,
      why: `${known.repo} is not bound to this ticket's chat any more; touch no repository`,
    };
  const paths = workspacePaths(ctx, scope.ticket.id);
  const stepId = known ? await workspaceStepId(ctx, scope.ticket.id) : undefined;
  if (known?.dir === paths.dir && (await exists(`${known.dir}/.git`))) {
    if ((await readStepMarker(ctx, scope.ticket.id)) === stepId) return { ok: true, ws: known, login };
  }
  const choice = known ? { repo: known.repo, why: 'recorded' } : await chooseRepo(ctx, scope.ticket);
  if (!choice.repo) {
    // Issue 31: a repository the chat is not bound to is never asked about, cloned or pushed.
    if ('unbound' in choice && choice.unbound) await refuseUnboundRepo(ctx, scope.ticket.id, choice.unbound);
    return { ok: false, why: choice.why };
  }
  if (!(await mayWorkIn(ctx, scope.ticket, choice.repo)))
    return { ok: false, why: `${choice.repo} is not a repository this ticket may work in (issue 31)` };
  const { data } = await (await github.client(choice.repo)).rest.repos.get(splitRepo(choice.repo));
  const refused = cloneUrlProblem(data.clone_url, gitProtocols(ctx.config));
  if (refused) return { ok: false, why: refused };
  const ws: Workspace = {
    repo: data.full_name,
    cloneUrl: data.clone_url,
    dir: paths.dir,
    home: paths.home,
    branch: known?.branch ?? branchName(scope.ticket.id, scope.ticket.title),
    base: data.default_branch,
  };
  await mkdirPrivate(`${ws.home}/tmp`);
  const pulls = await ticketPulls(ctx, scope.ticket.id, ws.repo);
  ws.baseSha = await checkoutAtStep(scope, ws, login, pulls, stepId);
  await saveWorkspace(ctx, scope.ticket.id, ws);
  await updateTicket(ctx, scope.ticket.id, { repo: ws.repo });
  scope.ticket.repo = ws.repo;
  // Issue 45: a ticket whose repository is chosen only now (a chat's first turn) learns only now
  // whether it names a fork's PR — the turn began with egress on, before a command ran the fork's code.
  if (!scope.forkCode) scope.forkCode = await involvesForkCode(ctx, scope.ticket.id, ws.repo);
  await addTicketRefs(ctx, scope.ticket.id, [refKey({ type: 'branch', repo: ws.repo, name: ws.branch })]);
  ctx.log.info({ ticketId: scope.ticket.id, repo: ws.repo, why: choice.why }, 'workspace ready');
  return { ok: true, ws, login };
}

/**
 * `makeCheckout`, restored to the recorded step when there is one. A step that cannot be restored
 * (its base commit gone from the repository, a bundle failing fsck) is logged and the checkout is
 * made from the pushed branch instead; the marker is set either way, so it is tried once.
 */
async function checkoutAtStep(
  scope: TurnScope,
  ws: Workspace,
  login: string,
  pulls: readonly number[],
  stepId: string | undefined,
): Promise<string> {
  const { ctx } = scope.rt;
  const ticketId = scope.ticket.id;
  const got = stepId ? await loadWorkspaceStep(ctx, ticketId) : undefined;
  const restore: StepToRestore | undefined = got && { ticketId, ...got };
  let baseSha: string;
  try {
    baseSha = await makeCheckout(ctx, ws, login, pulls, restore);
    if (restore)
      ctx.log.info({ ticketId, step: restore.step.step }, 'workspace restored to its recorded step');
  } catch (err) {
    if (!restore || (err as Error).name !== 'GitError') throw err;
    ctx.log.warn({ ticketId, step: restore.step.step, err }, 'workspace step could not be restored');
    baseSha = await makeCheckout(ctx, ws, login, pulls);
  }
  await writeStepMarker(ctx, ticketId, restore?.step.id);
  return baseSha;
}
