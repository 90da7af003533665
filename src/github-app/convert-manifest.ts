import { createGitHubClient } from '../channels/github/client.ts';
import type { Ctx } from '../context.ts';
import type { CreatedApp } from './created-app.ts';

/** What GitHub hands back once for a manifest code: the App and its credentials. */
export interface Conversion {
  app: CreatedApp;
  /** The App's private key (PEM), webhook secret: for the operator's `.env`, never stored. */
  pem: string;
  webhookSecret: string;
}

export type ConversionResult =
  | { ok: true; value: Conversion }
  | { ok: false; status: number; message: string };

/**
 * `POST /app-manifests/{code}/conversions` (no authentication: the code is the credential, valid
 * an hour and once). A code GitHub does not know, or knows as spent, answers 404.
 */
export async function convertManifest(
  ctx: Pick<Ctx, 'config' | 'log' | 'now'>,
  code: string,
): Promise<ConversionResult> {
  const client = createGitHubClient({ baseUrl: ctx.config.GITHUB_API_URL, log: ctx.log });
  try {
    const { data } = await client.rest.apps.createFromManifest({ code });
    const htmlUrl = data.html_url;
    const owner = data.owner && 'login' in data.owner ? data.owner.login : '';
    return {
      ok: true,
      value: {
        app: {
          id: data.id,
          slug: data.slug ?? String(data.id),
          name: data.name,
          owner,
          htmlUrl,
          installUrl: `${htmlUrl.replace(/\/+$/, '')}/installations/new`,
          clientId: data.client_id ?? '',
          createdAt: ctx.now(),
        },
        pem: data.pem,
        webhookSecret: data.webhook_secret ?? '',
      },
    };
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (typeof status !== 'number' || status >= 500) throw err;
    return { ok: false, status, message: (err as Error).message };
  }
}

/**
 * The lines for `.env`: the private key as GitHub gave it, over several lines in double quotes
 * (`.env` and `ENV_FILE` read that as is: no `\n` escapes), the App id and the webhook secret.
 */
export function envBlock(c: Conversion): string {
  return [
    `# GitHub App ${c.app.slug} (id ${c.app.id}), created from the panel`,
    `GITHUB_APP_ID=${c.app.id}`,
    `GITHUB_WEBHOOK_SECRET=${c.webhookSecret}`,
    `GITHUB_PRIVATE_KEY="${c.pem.trim()}"`,
    '',
  ].join('\n');
}
