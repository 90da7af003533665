import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { decodeQR } from 'qr/decode.js';
import { describe, expect, it } from 'vitest';
import {
  FEISHU_CALLBACKS,
  FEISHU_EVENTS,
  FEISHU_SCOPES,
  feishuAddons,
} from '../../../src/channels/feishu/app-needs.ts';
import { createFeishuDispatcher } from '../../../src/channels/feishu/dispatcher.ts';
import { loadConfig } from '../../../src/config.ts';
import { accountsUrlOf, larkAccountsUrlFor } from '../../../src/feishu-app/accounts-url.ts';
import { feishuEnvBlock } from '../../../src/feishu-app/env-block.ts';
import { qrDataUrl } from '../../../src/feishu-app/qr-image.ts';
import { registrationLink } from '../../../src/feishu-app/registration-link.ts';
import { createLogger } from '../../../src/logger.ts';

const doc = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8');
const GUIDES = ['feishu-setup.md', 'feishu-setup.zh.md'];

/** The scope list of a guide's "batch import" JSON block. */
function importedScopes(text: string): unknown {
  const block = /```json\n(\{\n {2}"scopes"[\s\S]*?\n\})\n```/.exec(text)?.[1];
  return block ? JSON.parse(block) : null;
}

/** Our QR SVG drawn back into pixels (4 per module), as a camera would see it, then read. */
function readQr(dataUrl: string): string {
  const svg = Buffer.from(dataUrl.split(',')[1] ?? '', 'base64').toString('utf8');
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const dark = new Set<string>();
  for (const m of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g))
    for (let x = Number(m[1]); x < Number(m[1]) + Number(m[3]); x++) dark.add(`${x},${m[2]}`);
  const scale = 4;
  const width = size * scale;
  const data = new Uint8Array(width * width * 4).fill(255);
  for (let py = 0; py < width; py++)
    for (let px = 0; px < width; px++)
      if (dark.has(`${Math.floor(px / scale)},${Math.floor(py / scale)}`))
        data.fill(0, (py * width + px) * 4, (py * width + px) * 4 + 3);
  return decodeQR({ width, height: width, data });
}

describe('what the Feishu app needs is one list (issue 33 item 6)', () => {
  it('the dispatcher handles exactly the listed event and callback', async () => {
    const config = loadConfig({ FEISHU_APP_ID: 'cli_a0b1c2d3e4f50617', FEISHU_APP_SECRET: 'secret' });
    const dispatcher = createFeishuDispatcher(
      () => ({ config, botOpenId: 'ou_bot' }),
      createLogger('silent'),
    );
    const send = (type: string) =>
      dispatcher.dispatch({ schema: '2.0', header: { event_type: type, event_id: 'e1' }, event: {} });
    // A handled type checks its payload (an empty one is a 400); any other is acknowledged and dropped.
    for (const type of [...FEISHU_EVENTS, ...FEISHU_CALLBACKS])
      await expect(send(type), type).rejects.toMatchObject({ status: 400, code: 'malformed_event' });
    expect(await send('im.chat.member.bot.added_v1')).toMatchObject({ kind: 'ignored' });
  });

  it.each(GUIDES)(
    '%s lists the same scopes (the import block and the table) and the event and callback',
    (name) => {
      const text = doc(name);
      expect(importedScopes(text)).toEqual({
        scopes: { tenant: FEISHU_SCOPES.map((s) => s.scope), user: [] },
      });
      for (const { scope } of FEISHU_SCOPES) expect(text).toMatch(new RegExp(`^\\| \`${scope}\``, 'm'));
      for (const item of [...FEISHU_EVENTS, ...FEISHU_CALLBACKS]) expect(text).toContain(`| \`${item}\``);
    },
  );

  it("the QR link carries the SDK's parameters and the needs as addons (JSON, gzip, URL-safe base64)", () => {
    const link = new URL(
      registrationLink('https://open.feishu.cn/page/launcher?user_code=AB12-CD34', 'Yard'),
    );
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      user_code: 'AB12-CD34',
      from: 'sdk',
      tp: 'sdk',
      name: 'Yard',
      createOnly: 'true',
    });
    const addons = link.searchParams.get('addons') ?? '';
    expect(addons).toMatch(/^[\w-]+$/);
    expect(JSON.parse(gunzipSync(Buffer.from(addons, 'base64url')).toString('utf8'))).toEqual(feishuAddons());
    expect(feishuAddons()).toEqual({
      preset: false,
      scopes: { tenant: FEISHU_SCOPES.map((s) => s.scope) },
      events: { items: { tenant: ['im.message.receive_v1'] } },
      callbacks: { items: ['card.action.trigger'] },
    });
  });

  it('the QR code reads back as the link, however long', () => {
    const link = registrationLink('https://open.feishu.cn/page/launcher?user_code=AB12-CD34', 'Switchyard');
    expect(readQr(qrDataUrl(link))).toBe(link);
    expect(readQr(qrDataUrl('https://example.com/x'))).toBe('https://example.com/x');
  });

  it('accounts hosts: Feishu, Lark (switched to once for a Lark tenant), a fake at its own origin', () => {
    expect(accountsUrlOf('https://open.feishu.cn')).toBe('https://accounts.feishu.cn');
    expect(accountsUrlOf('https://open.larksuite.com/')).toBe('https://accounts.larksuite.com');
    expect(accountsUrlOf('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000');
    expect(larkAccountsUrlFor('https://accounts.feishu.cn')).toBe('https://accounts.larksuite.com');
    expect(larkAccountsUrlFor('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000');
  });

  it('.env lines: Lark’s Open API for a Lark app, and what HTTP event mode still needs', () => {
    const app = { appId: 'cli_a0b1c2d3e4f50617', appSecret: 's3cret', brand: 'lark' as const };
    const ws = feishuEnvBlock({ FEISHU_DOMAIN: 'https://open.feishu.cn', feishuEventMode: 'ws' }, app);
    expect(ws).toContain('FEISHU_DOMAIN=https://open.larksuite.com\n');
    const lark = feishuEnvBlock(
      { FEISHU_DOMAIN: 'https://open.larksuite.com', feishuEventMode: 'http' },
      app,
    );
    expect(lark).not.toContain('FEISHU_DOMAIN=');
    expect(lark).toContain('FEISHU_ENCRYPT_KEY');
  });
});
