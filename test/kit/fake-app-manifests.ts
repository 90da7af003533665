import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** An App the fake created from a manifest, with the private key it handed out once. */
export interface FakeCreatedApp {
  id: number;
  slug: string;
  name: string;
  owner: string;
  permissions: Record<string, string>;
  events: string[];
  hookUrl: string;
  webhookSecret: string;
  pem: string;
  clientId: string;
}

interface Pending {
  manifest: Record<string, unknown>;
  owner: string;
  state: string | null;
}

type Page = { status: number; html: string };
type Reply = { status: number; body: unknown };

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export interface AppManifests {
  created: FakeCreatedApp[];
  /** Codes handed out and not yet redeemed. */
  pending: Map<string, Pending>;
  /**
   * `POST /settings/apps/new` (or an organization's) with the form field `manifest`: GitHub's
   * registration page, whose button sends the browser to `redirect_url` with `code` and `state`.
   * A manifest that is not JSON or lacks `url` is refused, as GitHub does.
   */
  newAppPage(form: URLSearchParams, query: URLSearchParams, org?: string): Page;
  /**
   * `POST /app-manifests/{code}/conversions`: 201 with the App, its `pem`, `webhook_secret`,
   * `client_id` and `client_secret`, once; an unknown or spent code is 404, as on GitHub.
   */
  convert(code: string): Reply;
}

/** The fake GitHub's side of the App manifest flow (GitHub docs "Registering a GitHub App from a manifest"). */
export function createAppManifests(
  webUrl: () => string,
  onCreated: (app: FakeCreatedApp) => void,
): AppManifests {
  let nextId = 9000;
  const self: AppManifests = {
    created: [],
    pending: new Map(),
    newAppPage(form, query, org) {
      let manifest: Record<string, unknown>;
      try {
        manifest = JSON.parse(form.get('manifest') ?? '') as Record<string, unknown>;
      } catch {
        return { status: 422, html: '<p>Invalid GitHub App configuration: the manifest is not JSON</p>' };
      }
      const hook = manifest.hook_attributes as { url?: unknown } | undefined;
      if (typeof manifest.url !== 'string' || (hook && typeof hook.url !== 'string'))
        return { status: 422, html: '<p>Invalid GitHub App configuration: url is required</p>' };
      const code = randomBytes(10).toString('hex');
      const owner = org ?? 'fake-owner';
      self.pending.set(code, { manifest, owner, state: query.get('state') });
      const back =
        typeof manifest.redirect_url === 'string' ? manifest.redirect_url : `${webUrl()}/settings/apps`;
      const state = query.get('state');
      const html = [
        '<!doctype html><meta charset="utf-8"><title>Create GitHub App</title>',
        `<h1>Create GitHub App for ${esc(owner)}</h1>`,
        `<p id="app-name">${esc(String(manifest.name ?? ''))}</p>`,
        `<form method="get" action="${esc(back)}">`,
        `<input type="hidden" name="code" value="${code}">`,
        state === null ? '' : `<input type="hidden" name="state" value="${esc(state)}">`,
        `<button type="submit">Create GitHub App for ${esc(owner)}</button></form>`,
      ].join('\n');
      return { status: 200, html };
    },
    convert(code) {
      const p = self.pending.get(code);
      if (!p)
        return {
          status: 404,
          body: {
            message: 'Not Found',
            documentation_url: 'https://docs.github.com/rest/apps/apps#create-a-github-app-from-a-manifest',
          },
        };
      self.pending.delete(code);
      const m = p.manifest;
      const name = String(m.name ?? `app-${nextId}`);
      const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs1', format: 'pem' })
        .toString();
      const app: FakeCreatedApp = {
        id: nextId++,
        slug: slugOf(name),
        name,
        owner: p.owner,
        permissions: { ...(m.default_permissions as Record<string, string> | undefined) },
        events: [...((m.default_events as string[] | undefined) ?? [])],
        hookUrl: String((m.hook_attributes as { url?: unknown } | undefined)?.url ?? ''),
        webhookSecret: randomBytes(20).toString('hex'),
        pem,
        clientId: `Iv23${randomBytes(8).toString('hex')}`,
      };
      self.created.push(app);
      onCreated(app);
      const now = new Date().toISOString();
      return {
        status: 201,
        body: {
          id: app.id,
          slug: app.slug,
          node_id: `A_${app.id}`,
          client_id: app.clientId,
          owner: { login: app.owner, id: 1, type: 'User' },
          name: app.name,
          description: String(m.description ?? ''),
          external_url: String(m.url),
          html_url: `${webUrl()}/apps/${app.slug}`,
          created_at: now,
          updated_at: now,
          permissions: { metadata: 'read', ...app.permissions },
          events: app.events,
          installations_count: 0,
          client_secret: randomBytes(20).toString('hex'),
          webhook_secret: app.webhookSecret,
          pem: app.pem,
        },
      };
    },
  };
  return self;
}
