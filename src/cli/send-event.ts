import { createCipheriv, createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { feishuSample, GITHUB_SAMPLES, githubSample } from './sample-events.ts';

/** What a `send-event` run posts: URL, headers and the exact body bytes. */
export interface SignedRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Thrown for what the operator can fix (a missing secret, an unknown event): its message is the whole answer. */
export class UsageError extends Error {
  override name = 'UsageError' as const;
}

const local = (config: Config) => `http://127.0.0.1:${config.PORT}`;

/**
 * Issue 32: a sample GitHub event signed with `GITHUB_WEBHOOK_SECRET` (`X-Hub-Signature-256` over
 * the exact body), as GitHub posts it to `/webhooks/github`.
 */
export function githubRequest(
  config: Config,
  event: string,
  o: { body: string; repo: string; number: number; sender: string; url: string | undefined },
): SignedRequest {
  if (!config.GITHUB_WEBHOOK_SECRET)
    throw new UsageError('GITHUB_WEBHOOK_SECRET is not set: send-event signs with the secret the bot checks');
  if (!(GITHUB_SAMPLES as readonly string[]).includes(event))
    throw new UsageError(`no sample for GitHub event "${event}": one of ${GITHUB_SAMPLES.join(', ')}`);
  const body = JSON.stringify(githubSample(event as (typeof GITHUB_SAMPLES)[number], o));
  const signature = `sha256=${createHmac('sha256', config.GITHUB_WEBHOOK_SECRET).update(body).digest('hex')}`;
  return {
    url: `${o.url ?? local(config)}/webhooks/github`,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'switchyard-send-event',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': signature,
    },
    body,
  };
}

/**
 * Issue 32: a sample Feishu message as Feishu pushes it over HTTP: encrypted and signed with
 * `FEISHU_ENCRYPT_KEY` (base64(iv ‖ AES-256-CBC), `X-Lark-Signature` = sha256(timestamp + nonce +
 * key + body)), `header.token` the verification token.
 */
export function feishuRequest(
  config: Config,
  o: { text: string; chat: string | undefined; sender: string; url: string | undefined },
): SignedRequest {
  if (!config.feishuEnabled) throw new UsageError('Feishu is off: set FEISHU_APP_ID and FEISHU_APP_SECRET');
  if (config.feishuEventMode !== 'http')
    throw new UsageError(
      'the bot takes Feishu events over the long connection: send-event feishu posts to /webhooks/feishu, which needs FEISHU_EVENT_MODE=http',
    );
  const key = config.FEISHU_ENCRYPT_KEY ?? '';
  const event = feishuSample({
    appId: config.FEISHU_APP_ID ?? '',
    token: config.FEISHU_VERIFICATION_TOKEN ?? '',
    chat: o.chat,
    sender: o.sender,
    text: o.text,
  });
  const body = JSON.stringify({ encrypt: encrypt(JSON.stringify(event), key) });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomUUID();
  const signature = createHash('sha256')
    .update(timestamp + nonce + key)
    .update(body)
    .digest('hex');
  return {
    url: `${o.url ?? local(config)}/webhooks/feishu`,
    headers: {
      'content-type': 'application/json',
      'x-lark-request-timestamp': timestamp,
      'x-lark-request-nonce': nonce,
      'x-lark-signature': signature,
    },
    body,
  };
}

function encrypt(plaintext: string, encryptKey: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', createHash('sha256').update(encryptKey).digest(), iv);
  return Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64');
}

/** Posts it; the answer's status and body, or why the bot could not be reached (naming PORT). */
export async function post(req: SignedRequest): Promise<{ ok: boolean; line: string }> {
  try {
    const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body });
    const text = (await res.text()).slice(0, 2000);
    return { ok: res.ok, line: `${req.url} answered ${res.status}${text ? `: ${text}` : ''}` };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    return {
      ok: false,
      line: `no bot answers at ${req.url} (${cause}): start it (switchyard start), or pass --url, or set PORT to the port it listens on`,
    };
  }
}
