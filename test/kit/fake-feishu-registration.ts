import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AppItems, appItemsFrom } from './fake-feishu-addons.ts';

/** An app the fake created when a person confirmed a scan, with the secret it handed out once. */
export interface FakeRegisteredApp extends AppItems {
  appId: string;
  appSecret: string;
  name: string;
  openId: string;
  brand: 'feishu' | 'lark';
  /** Whether the link hid "use an existing app" (`createOnly=true`). */
  createOnly: boolean;
}

/** What the person's phone shows after scanning: the confirm page's contents. */
export interface ScanView extends AppItems {
  userCode: string;
  name: string;
  createOnly: boolean;
  /** The link's `addons` did not decode or had the wrong shape, and was dropped whole. */
  discarded: boolean;
}

interface Flow {
  deviceCode: string;
  userCode: string;
  expiresAt: number;
  intervalMs: number;
  lastPollAt: number;
  state: 'waiting' | 'scanned' | 'confirmed' | 'denied' | 'spent';
  view?: ScanView;
  app?: FakeRegisteredApp;
  person?: { openId: string; brand: 'feishu' | 'lark' };
}

export type Reply = [number, Record<string, unknown>];

/** The fake's registration host: `POST /oauth/v1/app/registration`, as the pinned SDK speaks it. */
export interface FakeRegistration {
  /**
   * Seconds Feishu asks the client to wait between polls, a device code's life, and how many of
   * the next requests have their connection dropped unanswered (a network failure).
   */
  settings: { intervalSeconds: number; expiresInSeconds: number; dropNext: number };
  /** Every form posted, with the answer. */
  calls: { form: Record<string, string>; status: number; reply: Record<string, unknown>; at: number }[];
  created: FakeRegisteredApp[];
  /** The form endpoint: `action=begin` or `action=poll`. */
  answer(form: Record<string, string>): Reply;
  /** As the person's phone: opens the link the QR code carries and reads the confirm page. */
  scan(link: string, person?: { openId?: string; brand?: 'feishu' | 'lark' }): ScanView;
  /** The person presses Create (after `scan`); the next poll hands out the app's credentials. */
  confirm(userCode: string): FakeRegisteredApp;
  /** The person presses Cancel. */
  deny(userCode: string): void;
  /** The device code runs out now. */
  expire(userCode: string): void;
  /** Whether an app id and secret belong to an app made here (the token endpoint takes them). */
  knows(appId: string, appSecret: string): boolean;
}

const refuse = (error: string, description: string): Reply => [
  400,
  { error, error_description: description },
];

/** The registration side of the fake Feishu; `launcherUrl` is where its verification page lives. */
export function createFakeRegistration(launcherUrl: () => string): FakeRegistration {
  const flows = new Map<string, Flow>();
  const byUser = (userCode: string) => {
    const f = [...flows.values()].find((x) => x.userCode === userCode);
    if (!f) throw new Error(`fake-feishu: no scan with user code ${userCode}`);
    return f;
  };

  const begin = (form: Record<string, string>): Reply => {
    if (form.archetype !== 'PersonalAgent') return refuse('invalid_request', 'unsupported archetype');
    if (form.auth_method !== 'client_secret') return refuse('invalid_request', 'unsupported auth_method');
    const userCode = `${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex')}`.toUpperCase();
    const f: Flow = {
      deviceCode: randomBytes(24).toString('base64url'),
      userCode,
      expiresAt: Date.now() + self.settings.expiresInSeconds * 1000,
      intervalMs: self.settings.intervalSeconds * 1000,
      lastPollAt: 0,
      state: 'waiting',
    };
    flows.set(f.deviceCode, f);
    return [
      200,
      {
        device_code: f.deviceCode,
        user_code: userCode,
        verification_uri: `${launcherUrl()}`,
        verification_uri_complete: `${launcherUrl()}?user_code=${userCode}`,
        expires_in: self.settings.expiresInSeconds,
        interval: self.settings.intervalSeconds,
      },
    ];
  };

  const poll = (form: Record<string, string>): Reply => {
    const f = form.device_code ? flows.get(form.device_code) : undefined;
    if (!form.device_code) return refuse('invalid_request', 'device_code is required');
    if (!f || f.state === 'spent') return refuse('invalid_grant', 'device_code is invalid or used');
    const now = Date.now();
    if (now >= f.expiresAt) return refuse('expired_token', 'the device code has expired');
    // RFC 8628 §3.5: polling sooner than the interval is answered slow_down, and the interval grows.
    if (f.lastPollAt && now - f.lastPollAt < f.intervalMs) {
      f.lastPollAt = now;
      f.intervalMs += 5000;
      return refuse('slow_down', 'polling too fast');
    }
    f.lastPollAt = now;
    if (f.state === 'denied') {
      f.state = 'spent';
      return refuse('access_denied', 'the user declined');
    }
    if (f.state !== 'confirmed' || !f.app) return refuse('authorization_pending', 'waiting for the user');
    f.state = 'spent';
    const { app } = f;
    return [
      200,
      {
        client_id: app.appId,
        client_secret: app.appSecret,
        user_info: { open_id: app.openId, tenant_brand: app.brand },
      },
    ];
  };

  const self: FakeRegistration = {
    settings: { intervalSeconds: 5, expiresInSeconds: 600, dropNext: 0 },
    calls: [],
    created: [],
    answer(form) {
      const reply: Reply =
        form.action === 'begin'
          ? begin(form)
          : form.action === 'poll'
            ? poll(form)
            : refuse('invalid_request', `unsupported action ${form.action ?? '(none)'}`);
      self.calls.push({ form, status: reply[0], reply: reply[1], at: Date.now() });
      return reply;
    },
    scan(link, person = {}) {
      const u = new URL(link);
      const f = byUser(u.searchParams.get('user_code') ?? '');
      if (Date.now() >= f.expiresAt || f.state === 'spent')
        throw new Error('fake-feishu: this QR code has expired');
      const items = appItemsFrom(u.searchParams.get('addons'));
      f.view = {
        ...items,
        userCode: f.userCode,
        name: u.searchParams.get('name') ?? 'PersonalAgent',
        createOnly: u.searchParams.get('createOnly') === 'true',
      };
      f.person = { openId: person.openId ?? 'ou_fake_scanner', brand: person.brand ?? 'feishu' };
      f.state = 'scanned';
      return f.view;
    },
    confirm(userCode) {
      const f = byUser(userCode);
      if (f.state !== 'scanned' || !f.view || !f.person) throw new Error('fake-feishu: confirm before scan');
      const { discarded: _, userCode: __, ...view } = f.view;
      f.app = {
        ...view,
        appId: `cli_${randomBytes(8).toString('hex')}`,
        appSecret: randomBytes(16).toString('base64url'),
        ...f.person,
      };
      f.state = 'confirmed';
      self.created.push(f.app);
      return f.app;
    },
    deny(userCode) {
      byUser(userCode).state = 'denied';
    },
    expire(userCode) {
      byUser(userCode).expiresAt = Date.now();
    },
    knows: (appId, appSecret) => self.created.some((a) => a.appId === appId && a.appSecret === appSecret),
  };
  return self;
}

export const REGISTRATION_PATH = '/oauth/v1/app/registration';

/**
 * The registration endpoint's HTTP side: a form POST only (the SDK sends
 * `application/x-www-form-urlencoded`); refusals are JSON `{ error, error_description }` with 400.
 */
export function serveRegistration(
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
  reg: FakeRegistration,
) {
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  if (reg.settings.dropNext > 0) {
    reg.settings.dropNext -= 1;
    req.socket.destroy();
    return;
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
  if (req.method !== 'POST') return reply(405, { error: 'invalid_request', error_description: 'POST only' });
  if (type !== 'application/x-www-form-urlencoded')
    return reply(400, { error: 'invalid_request', error_description: 'a form body is required' });
  const [status, body] = reg.answer(Object.fromEntries(new URLSearchParams(raw)));
  reply(status, body);
}
