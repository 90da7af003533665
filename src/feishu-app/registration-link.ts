import { gzipSync } from 'node:zlib';
import { feishuAddons } from '../channels/feishu/app-needs.ts';

/**
 * The `addons` query value, encoded as the platform reads it (the pinned SDK's `encodeAddons`):
 * JSON, gzip, then URL-safe base64 without padding.
 */
function encodeAddons(addons: unknown): string {
  return gzipSync(Buffer.from(JSON.stringify(addons), 'utf8')).toString('base64url');
}

/**
 * The link the QR code carries (issue 33 item 6): Feishu's verification link with what the
 * SDK's `registerApp` adds — where it comes from, the app's name pre-filled (no description:
 * every character makes the code denser), the scopes, event and callback the bot needs
 * (`feishuAddons`), and `createOnly`, so the person cannot bind an existing app by mistake (whose
 * settings the addons would change).
 */
export function registrationLink(verificationUri: string, name: string): string {
  const u = new URL(verificationUri);
  u.searchParams.set('from', 'sdk');
  u.searchParams.set('source', 'node-sdk/switchyard');
  u.searchParams.set('tp', 'sdk');
  u.searchParams.set('name', name);
  u.searchParams.set('addons', encodeAddons(feishuAddons()));
  u.searchParams.set('createOnly', 'true');
  return u.toString();
}
