import { describe, expect, it } from 'vitest';
import type { TriggerCard } from '../../../src/cards/card.ts';
import { loadConfig } from '../../../src/config.ts';
import { maySteer } from '../../../src/router/may-steer.ts';
import { feishuAdmits } from '../../../src/safety/allow-list.ts';

function githubCard(login: string, permission: string, numericId?: number): TriggerCard {
  return {
    id: 'c1',
    source: 'github',
    kind: 'issue_comment',
    eventId: 'd1',
    receivedAt: 0,
    author: { id: login, type: 'person', permission, ...(numericId ? { numericId } : {}) },
    origin: { source: 'github', repo: 'acme/widgets', number: 7, isPullRequest: false },
    conversation: 'acme/widgets#7',
    request: true,
    refs: [],
    text: 'please',
  };
}

describe('issue 14: allow-lists per channel (R-A5)', () => {
  it('R-A5: on GitHub a listed person still needs write permission: the list never replaces it', () => {
    const c = loadConfig({ ALLOWED_USERS: 'github:carol' });
    expect(maySteer(githubCard('carol', 'read'), c)).toBe(false);
    expect(maySteer(githubCard('Carol', 'write'), c)).toBe(true);
  });

  it('R-A5: GitHub entries narrow: a writer who is not listed may not steer; by login or numeric id', () => {
    const c = loadConfig({ ALLOWED_USERS: 'github:carol,github:4242' });
    expect(maySteer(githubCard('ada', 'admin'), c)).toBe(false);
    expect(maySteer(githubCard('renamed-dev', 'write', 4242), c)).toBe(true);
    // Only Feishu entries: GitHub is decided by permission alone.
    const feishuOnly = loadConfig({ ALLOWED_USERS: 'feishu:ou_alice' });
    expect(maySteer(githubCard('ada', 'write'), feishuOnly)).toBe(true);
    expect(maySteer(githubCard('ou_alice', 'read'), feishuOnly)).toBe(false);
  });

  it('R-A5: a GitHub entry never admits a Feishu person of the same id, nor the other way', () => {
    const c = loadConfig({ ALLOWED_USERS: 'github:alice' });
    expect(feishuAdmits(c, ['alice'], 'oc_any')).toBe(true); // no Feishu entries: Feishu is open
    const both = loadConfig({ ALLOWED_USERS: 'github:alice,feishu:ou_bob' });
    expect(feishuAdmits(both, ['alice'], 'oc_any')).toBe(false);
    expect(feishuAdmits(both, ['ou_bob'], 'oc_any')).toBe(true);
    expect(maySteer(githubCard('ou_bob', 'write'), both)).toBe(false);
  });
});
