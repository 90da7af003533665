import { APP_EVENTS, APP_PERMISSIONS } from '../channels/github/app-needs.ts';

/** A GitHub App manifest (GitHub's "Registering a GitHub App from a manifest"). */
export interface AppManifest {
  name: string;
  url: string;
  description: string;
  hook_attributes: { url: string; active: boolean };
  redirect_url: string;
  public: false;
  default_permissions: Record<string, 'read' | 'write'>;
  default_events: string[];
}

/** Where the panel's callback route lives; GitHub sends the browser back here with `code` and `state`. */
export const CALLBACK_PATH = '/panel/github-app/callback';

/**
 * GitHub's web address for an API base: github.com for api.github.com, the host of a GHES
 * `…/api/v3` URL, else the API's own origin (a test's fake serves both).
 */
export function githubWebUrl(apiUrl: string): string {
  const u = new URL(apiUrl);
  if (u.hostname.toLowerCase() === 'api.github.com') return 'https://github.com';
  return u.origin;
}

/**
 * The manifest for this deployment (issue 16): exactly the permissions and events the bot needs
 * (`APP_NEEDS`), webhooks to `<publicUrl>/webhooks/github`, GitHub's redirect back to the
 * panel's callback, and a private App (only its owner can install it).
 */
export function buildManifest(publicUrl: string, name: string): AppManifest {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    name,
    url: base,
    description: 'Switchyard: coding agents driven from chats and pull requests',
    hook_attributes: { url: `${base}/webhooks/github`, active: true },
    redirect_url: `${base}${CALLBACK_PATH}`,
    public: false,
    default_permissions: { ...APP_PERMISSIONS },
    default_events: [...APP_EVENTS],
  };
}

/** The page the manifest is posted to: the person's account, or an organization's. */
export function newAppUrl(webUrl: string, state: string, org?: string): string {
  const path = org ? `/organizations/${encodeURIComponent(org)}/settings/apps/new` : '/settings/apps/new';
  return `${webUrl}${path}?state=${encodeURIComponent(state)}`;
}
