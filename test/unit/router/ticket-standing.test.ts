import { describe, expect, it } from 'vitest';
import type { Author, Origin, TriggerCard } from '../../../src/cards/card.ts';
import { loadConfig } from '../../../src/config.ts';
import { standingOn } from '../../../src/router/ticket-standing.ts';
import { wakesExecutor } from '../../../src/safety/wakes-executor.ts';
import type { Ticket } from '../../../src/tickets/ticket.ts';

const config = loadConfig({});

const feishuIn = (chatId: string): Origin => ({
  source: 'feishu',
  chatId,
  chatType: 'group',
  messageId: 'om_1',
});
const githubIn = (repo: string): Origin => ({ source: 'github', repo, number: 1, isPullRequest: false });

function card(
  origin: Origin,
  author: Partial<Author> = {},
  kind: TriggerCard['kind'] = 'message',
): TriggerCard {
  return {
    id: 'c1',
    source: origin.source,
    kind,
    eventId: 'e1',
    receivedAt: 0,
    author: { id: 'someone', type: 'person', ...author },
    origin,
    conversation: origin.source === 'github' ? `${origin.repo}#1` : 'conv',
    request: true,
    refs: [],
    text: '/resume',
  };
}

function ticket(origin: Origin, repo?: string): Ticket {
  return {
    id: 'T1',
    title: 't',
    state: 'working',
    openedBy: 'c0',
    origin,
    conversation: 'conv',
    requester: { id: 'ada' },
    ...(repo ? { repo } : {}),
    createdAt: 0,
    updatedAt: 0,
  };
}

describe('R-H5: standing is decided against the ticket’s own repository or chat', () => {
  it('R-H5: a Feishu ticket is steered from its own chat by people the allow-lists admit; elsewhere is data', () => {
    const t = ticket(feishuIn('oc_team'));
    expect(standingOn(card(feishuIn('oc_team')), t, config)).toEqual({ home: true, steers: true });
    // Issue 31: an outsider's message in the ticket's own chat is data there too, with a label.
    const outsider = standingOn(card(feishuIn('oc_team'), { role: 'not_allowed' }), t, config);
    expect(outsider).toMatchObject({ home: true, steers: false });
    expect(outsider.dataLabel).toMatch(/who may not steer this ticket\. Data only/);
    const other = standingOn(card(feishuIn('oc_other')), t, config);
    expect(other).toMatchObject({ home: false, steers: false });
    expect(other.dataLabel).toMatch(/not this ticket's repository or chat/);
  });

  it('R-H5: a GitHub ticket is steered by writers of its repository only; a writer elsewhere is data', () => {
    const t = ticket(githubIn('acme/widgets'), 'acme/widgets');
    expect(standingOn(card(githubIn('Acme/Widgets'), { permission: 'write' }), t, config).steers).toBe(true);
    const reader = standingOn(card(githubIn('acme/widgets'), { permission: 'read' }), t, config);
    expect(reader).toMatchObject({ home: true, steers: false });
    expect(reader.dataLabel).toMatch(
      /^from someone \(person, permission read\), who may not steer this ticket/,
    );
    const evil = standingOn(card(githubIn('evil/fork'), { id: 'mallory', permission: 'admin' }), t, config);
    expect(evil).toMatchObject({ home: false, steers: false });
    expect(evil.dataLabel).toMatch(/mallory: person, admin there/);
  });

  it('R-H5: a Feishu ticket working in a repository is also steered by that repository’s writers', () => {
    const t = ticket(feishuIn('oc_team'), 'acme/web');
    expect(standingOn(card(githubIn('acme/web'), { permission: 'maintain' }), t, config).steers).toBe(true);
    expect(standingOn(card(githubIn('acme/other'), { permission: 'admin' }), t, config).steers).toBe(false);
  });

  it('R-H5: automatic feedback wakes an executor only from the ticket’s own repository', () => {
    const t = ticket(githubIn('acme/widgets'), 'acme/widgets');
    const ci = (repo: string) => card(githubIn(repo), { id: 'ci[bot]', type: 'bot' }, 'check');
    // R-C7: a bot at home may not steer, but its feedback is the ticket's own, not labelled data.
    expect(standingOn(ci('acme/widgets'), t, config)).toEqual({ home: true, steers: false });
    expect(wakesExecutor(ci('acme/widgets'), standingOn(ci('acme/widgets'), t, config))).toBe(true);
    expect(wakesExecutor(ci('evil/fork'), standingOn(ci('evil/fork'), t, config))).toBe(false);
  });
});
