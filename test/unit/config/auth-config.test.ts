import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';

const FEISHU = { FEISHU_APP_ID: 'cli_a0b1c2d3e4f50617', FEISHU_APP_SECRET: 'secret' };

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('configuration was accepted');
}

describe('issue 14: authorization configuration', () => {
  it('R-A1: Feishu on (HTTP event mode) without FEISHU_ENCRYPT_KEY refuses to start, naming it', () => {
    const http = { ...FEISHU, FEISHU_EVENT_MODE: 'http' };
    expect(refusal(http)).toMatch(/FEISHU_ENCRYPT_KEY/);
    // Issue 16: a public URL makes HTTP the default mode, so the key is needed there too.
    expect(refusal({ ...FEISHU, PUBLIC_URL: 'https://bot.example.com' })).toMatch(/FEISHU_ENCRYPT_KEY/);
    expect(loadConfig({ ...http, FEISHU_ENCRYPT_KEY: 'k' }).feishuEnabled).toBe(true);
    // Feishu off: no key needed.
    expect(loadConfig({}).feishuEnabled).toBe(false);
  });

  it('issue 16: FEISHU_EVENT_MODE defaults to ws without a public URL (no encrypt key needed), to http with one', () => {
    const ws = loadConfig(FEISHU);
    expect(ws.feishuEventMode).toBe('ws');
    expect(ws.feishuEnabled).toBe(true);
    const withUrl = { ...FEISHU, PUBLIC_URL: 'https://bot.example.com', FEISHU_ENCRYPT_KEY: 'k' };
    expect(loadConfig(withUrl).feishuEventMode).toBe('http');
    expect(loadConfig({ ...withUrl, FEISHU_EVENT_MODE: 'ws' }).feishuEventMode).toBe('ws');
    expect(refusal({ ...FEISHU, FEISHU_EVENT_MODE: 'socket' })).toMatch(/FEISHU_EVENT_MODE: ws or http/);
  });

  it('R-A5: allow-list entries name their channel; GitHub by login or numeric id', () => {
    const c = loadConfig({
      ALLOWED_USERS: 'feishu:ou_alice, github:Carol ,github:12345',
      ALLOWED_CHATS: 'feishu:oc_team',
      SETTINGS_ADMINS: 'github:ada,feishu:ou_boss',
    });
    expect(c.ALLOWED_USERS).toEqual([
      { channel: 'feishu', id: 'ou_alice' },
      { channel: 'github', id: 'carol' },
      { channel: 'github', id: '12345' },
    ]);
    expect(c.ALLOWED_CHATS).toEqual(['oc_team']);
    expect(c.SETTINGS_ADMINS).toEqual([
      { channel: 'github', id: 'ada' },
      { channel: 'feishu', id: 'ou_boss' },
    ]);
  });

  it('R-A5: an entry without its channel is refused with the fix (README migration note)', () => {
    const users = refusal({ ALLOWED_USERS: 'ou_alice' });
    expect(users).toMatch(/ALLOWED_USERS/);
    expect(users).toMatch(/feishu:ou_alice/);
    expect(refusal({ ALLOWED_CHATS: 'oc_team' })).toMatch(/ALLOWED_CHATS.*feishu:oc_team/);
    expect(refusal({ SETTINGS_ADMINS: 'slack:bob' })).toMatch(/SETTINGS_ADMINS/);
    // GitHub has no chats: who may act there is its repository permission.
    expect(refusal({ ALLOWED_CHATS: 'github:acme/widgets' })).toMatch(/ALLOWED_CHATS/);
  });
});
