import type { TriggerCard } from '../cards/card.ts';
import { createGitHubClient, type GitHubClient, splitRepo } from '../channels/github/client.ts';
import type { Ctx } from '../context.ts';

/** Repository roles GitHub reports; a custom role's name falls back to its base `permission`. */
const KNOWN_ROLES = new Set(['admin', 'maintain', 'write', 'triage', 'read', 'none']);

const clients = new WeakMap<Ctx, GitHubClient>();

/** The client for permission look-ups: token mode only (App mode has no installation tokens yet). */
function permissionClient(ctx: Ctx): GitHubClient | undefined {
  const token = ctx.config.GITHUB_TOKEN;
  if (!token) return undefined;
  let client = clients.get(ctx);
  if (!client) {
    client = createGitHubClient({ baseUrl: ctx.config.GITHUB_API_URL, auth: token, log: ctx.log });
    clients.set(ctx, client);
  }
  return client;
}

/**
 * R-A5: a GitHub author's permission on the card's repository, looked up in the routing job (never
 * at the HTTP edge) and written onto the stored card, so every later check and every model sees
 * it. `GET /repos/{o}/{r}/collaborators/{u}/permission`, cached `PERMISSION_CACHE_SECONDS`. A
 * failed look-up gives `unknown`, which may not steer (fail closed) and is not cached.
 */
export async function withAuthorPermission(ctx: Ctx, card: TriggerCard): Promise<TriggerCard> {
  if (card.origin.source !== 'github' || card.author.type !== 'person' || card.author.permission) return card;
  const client = permissionClient(ctx);
  if (!client) return card;
  const permission = await lookUp(ctx, client, card.origin.repo, card.author.id);
  const enriched: TriggerCard = { ...card, author: { ...card.author, permission } };
  await ctx.redis.set(ctx.keys.card(card.id), JSON.stringify(enriched), 'KEEPTTL');
  return enriched;
}

async function lookUp(ctx: Ctx, client: GitHubClient, repo: string, login: string): Promise<string> {
  const key = ctx.keys.permission(repo, login);
  const cached = await ctx.redis.get(key);
  if (cached) return cached;
  let permission: string;
  try {
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
  await ctx.redis.set(key, permission, 'EX', ctx.config.PERMISSION_CACHE_SECONDS);
  return permission;
}
