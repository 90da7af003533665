import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APP_EVENTS, APP_NEEDS, missingFromApp } from '../../../src/channels/github/app-needs.ts';
import { scopedPermissions } from '../../../src/channels/github/token-scope.ts';
import { buildManifest, githubWebUrl, newAppUrl } from '../../../src/github-app/manifest.ts';

const README = readFileSync(new URL('../../../docs/github.md', import.meta.url), 'utf8');

describe('what the GitHub App needs is one list (issue 16)', () => {
  it('R-A2: the seven handled events, each with the permission that delivers it', () => {
    expect([...APP_EVENTS].sort()).toEqual(
      [
        'check_run',
        'check_suite',
        'issue_comment',
        'issues',
        'pull_request',
        'pull_request_review',
        'pull_request_review_comment',
      ].sort(),
    );
  });

  it('the manifest, the API token scope and the table in docs/github.md come from it', () => {
    const m = buildManifest('https://bot.example.com/', 'yard');
    expect(m.default_permissions).toEqual(Object.fromEntries(APP_NEEDS.map((n) => [n.permission, n.level])));
    expect(m.default_events).toEqual([...APP_EVENTS]);
    expect(m.hook_attributes.url).toBe('https://bot.example.com/webhooks/github');
    expect(m.redirect_url).toBe('https://bot.example.com/panel/github-app/callback');
    expect(Object.keys(scopedPermissions('api')).sort()).toEqual(APP_NEEDS.map((n) => n.permission).sort());
    for (const n of APP_NEEDS) {
      const events = n.events.length ? n.events.map((e) => `\`${e}\``).join(', ') : '—';
      expect(README).toContain(`| \`${n.permission}\` | ${n.level} | ${events} |`);
    }
  });

  it('GET /app is compared with it: a lower level or a missing event is named', () => {
    const full = {
      permissions: Object.fromEntries(APP_NEEDS.map((n) => [n.permission, 'write'])),
      events: APP_EVENTS,
    };
    expect(missingFromApp(full)).toEqual({ permissions: [], events: [] });
    expect(
      missingFromApp({
        ...full,
        permissions: { ...full.permissions, issues: 'read' },
        events: APP_EVENTS.slice(1),
      }),
    ).toEqual({ permissions: ['issues: write'], events: [APP_EVENTS[0]] });
  });

  it('GitHub web addresses: github.com, a GHES host, a fake; personal or organization page with the state', () => {
    expect(githubWebUrl('https://api.github.com')).toBe('https://github.com');
    expect(githubWebUrl('https://ghe.example.com/api/v3')).toBe('https://ghe.example.com');
    expect(githubWebUrl('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000');
    expect(newAppUrl('https://github.com', 'abc')).toBe('https://github.com/settings/apps/new?state=abc');
    expect(newAppUrl('https://github.com', 'abc', 'acme')).toBe(
      'https://github.com/organizations/acme/settings/apps/new?state=abc',
    );
  });
});
