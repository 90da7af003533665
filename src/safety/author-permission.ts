import type { TriggerCard } from '../cards/card.ts';
import { replaceCard } from '../cards/card-store.ts';
import { splitRepo } from '../channels/github/client.ts';
import { type GitHubRepoAccess, githubRepoAccess } from '../channels/github/repo-client.ts';
import type { Ctx } from '../context.ts';
import { cachedPermission, cachePermission } from './permission-cache.ts';

/** Repository roles GitHub reports; a custom role's name falls back to its base `permission`. */
const KNOWN_ROLES = new Set(['admin', 'maintain', 'write', 'triage', 'read', 'none']);

const access = new WeakMap<Ctx, GitHubRepoAccess>();

/** GitHub access for permission look-ups: `GITHUB_TOKEN`, or the App's installation tokens. */
function permissionAccess(ctx: Ctx): GitHubRepoAccess | undefined {
  const { GITHUB_TOKEN, GITHUB_APP_ID } = ctx.config;
  if (!GITHUB_TOKEN && !GITHUB_APP_ID) return undefined;
  let a = access.get(ctx);
  if (!a) {
    a = githubRepoAccess(ctx.config, ctx.log);
    access.set(ctx, a);
  }
  return a;
}

/**
 * R-A5: a GitHub author's permission on the card's repository, looked up in the routing job (never
 * at the HTTP edge) and written onto the stored card, so every later check and every model sees
 * it. `GET /repos/{o}/{r}/collaborators/{u}/permission`, cached `PERMISSION_CACHE_SECONDS`. A
 * failed look-up gives `unknown`, which may not steer (fail closed) and is not cached.
 */
export async function withAuthorPermission(ctx: Ctx, card: TriggerCard): Promise<TriggerCard> {
  if (card.origin.source !== 'github' || card.author.type !== 'person' || card.author.permission) return card;
  const github = permissionAccess(ctx);
  if (!github) return card;
  const permission = await lookUp(ctx, github, card.origin.repo, card.author.id);
  const enriched: TriggerCard = { ...card, author: { ...card.author, permission } };
  await replaceCard(ctx, enriched);
  return enriched;
}

/**
 * A GitHub login's permission on `repo` (`admin`, `maintain`, `write`, …), looked up and cached like
 * an author's; `unknown` without GitHub access or when the look-up fails (fail closed).
 */
export async function repoPermission(ctx: Ctx, repo: string, login: string): Promise<string> {
  const github = permissionAccess(ctx);
  return github ? lookUp(ctx, github, repo, login) : 'unknown';
}

async function lookUp(ctx: Ctx, github: GitHubRepoAccess, repo: string, login: string): Promise<string> {
  const cached = await cachedPermission(ctx, repo, login);
  if (cached) return cached;
  let permission: string;
  try {
    const client = await github.clientFor(repo);
    const { data } = await client.rest.repos.getCollaboratorPermissionLevel({
      ...splitRepo(repo),
      username: login,
    });
    const role = (data as { role_name?: string }).role_name;
    permission = role && KNOWN_ROLES.has(role) ? role : data.permission;
  } catch (err) {
    if ((err as { status?: number }).status !== 404) {
      ctx.log.warn({ err, repo, login }, 'github permission look-up failed; the author may not steer');
      return 'unknown';
    }
    permission = 'none';
  }
  await cachePermission(ctx, repo, login, permission, ctx.config.PERMISSION_CACHE_SECONDS);
  return permission;
}
