/**
 * What the bot needs from a GitHub App, in one list (issue 16): the manifest the panel sends to
 * GitHub (`default_permissions`, `default_events`), the doctor's comparison with `GET /app`, the
 * installation tokens' scopes (`token-scope.ts`) and the table in docs/github.md all read it. Each entry
 * names the permission, the level the bot's calls need, and the webhook events (R-A2) that
 * permission lets the App receive; `parse-event.ts` keys its parsers by exactly these events, so
 * a handled event cannot be missing here (the compiler says so).
 */
export const APP_NEEDS = [
  {
    permission: 'contents',
    level: 'write',
    why: 'clone and fetch the repository, push the tickets’ own sy/… branches',
    events: [],
  },
  {
    permission: 'issues',
    level: 'write',
    why: 'read issues and their comments, comment, react, edit the status comment',
    events: ['issues', 'issue_comment'],
  },
  {
    permission: 'pull_requests',
    level: 'write',
    why: 'open and update (draft) PRs, read diffs and reviews, reply in and resolve review threads',
    events: ['pull_request', 'pull_request_review', 'pull_request_review_comment'],
  },
  {
    permission: 'checks',
    level: 'read',
    why: 'read check results of the tickets’ PRs (automatic feedback)',
    events: ['check_run', 'check_suite'],
  },
  {
    permission: 'metadata',
    level: 'read',
    why: 'look up repositories, installations and collaborators’ permissions (R-A5)',
    events: [],
  },
] as const;

export type AppNeed = (typeof APP_NEEDS)[number];
/** A webhook event the bot turns into cards. */
export type AppEvent = AppNeed['events'][number];
export type AppPermissionLevel = 'read' | 'write';

/** `permission → level`, as `GET /app` and a manifest's `default_permissions` spell it. */
export const APP_PERMISSIONS: Readonly<Record<string, AppPermissionLevel>> = Object.fromEntries(
  APP_NEEDS.map((n) => [n.permission, n.level]),
);

/** Every event the bot handles (R-A2), in the list's order. */
export const APP_EVENTS: readonly AppEvent[] = APP_NEEDS.flatMap((n) => [...n.events]);

const RANK: Record<string, number> = { read: 1, write: 2, admin: 3 };

/** What an App (its `GET /app` answer) lacks of the list: permissions as `name: level`, and events. */
export function missingFromApp(app: { permissions?: unknown; events?: unknown }): {
  permissions: string[];
  events: AppEvent[];
} {
  const has = (app.permissions ?? {}) as Record<string, unknown>;
  const subscribed = new Set(Array.isArray(app.events) ? app.events : []);
  return {
    permissions: APP_NEEDS.filter((n) => (RANK[String(has[n.permission])] ?? 0) < (RANK[n.level] ?? 0)).map(
      (n) => `${n.permission}: ${n.level}`,
    ),
    events: APP_EVENTS.filter((e) => !subscribed.has(e)),
  };
}
