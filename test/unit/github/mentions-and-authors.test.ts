import { describe, expect, it } from 'vitest';
import { authorOf, isBotLogin } from '../../../src/channels/github/author.ts';
import { mentionsBot } from '../../../src/channels/github/mentions.ts';

describe('mentions and authors (R-A2, R-B8)', () => {
  it('R-B8: "@login" anywhere in a line is a mention, in any case, also with an App\'s [bot] suffix', () => {
    expect(mentionsBot('@switchyard-bot please fix', 'switchyard-bot')).toBe(true);
    expect(mentionsBot('hey @Switchyard-Bot, look', 'switchyard-bot')).toBe(true);
    expect(mentionsBot('(@switchyard-bot)', 'switchyard-bot')).toBe(true);
    expect(mentionsBot('cc @switchyard', 'switchyard[bot]')).toBe(true);
    expect(mentionsBot('cc @switchyard[bot]', 'switchyard[bot]')).toBe(true);
  });

  it('R-B8: a longer login, an e-mail address, a path or a quoted line is not a mention', () => {
    expect(mentionsBot('@switchyard-bot2 do it', 'switchyard-bot')).toBe(false);
    expect(mentionsBot('@switchyard-bot-old do it', 'switchyard-bot')).toBe(false);
    expect(mentionsBot('mail me@switchyard-bot', 'switchyard-bot')).toBe(false);
    expect(mentionsBot('see org/@switchyard-bot', 'switchyard-bot')).toBe(false);
    expect(mentionsBot('> @switchyard-bot fix it\nI disagree', 'switchyard-bot')).toBe(false);
    expect(mentionsBot('a regex @switchyard.bot', 'switchyard-bot')).toBe(false);
  });

  it("R-A2: the bot's own login is self (with or without [bot]), Bot-typed or [bot] logins are bots", () => {
    expect(authorOf({ login: 'Switchyard-Bot', type: 'User' }, 'switchyard-bot').type).toBe('self');
    expect(authorOf({ login: 'switchyard[bot]', type: 'Bot' }, 'switchyard[bot]').type).toBe('self');
    expect(authorOf({ login: 'dependabot[bot]', type: 'Bot' }, 'switchyard-bot').type).toBe('bot');
    expect(authorOf({ login: 'ci-user', type: 'Bot' }, 'switchyard-bot').type).toBe('bot');
    expect(authorOf({ login: 'ada', type: 'User' }, 'switchyard-bot', 'OWNER')).toEqual({
      id: 'ada',
      type: 'person',
      role: 'OWNER',
    });
    expect(isBotLogin('switchyard', 'switchyard[bot]')).toBe(true);
  });
});
