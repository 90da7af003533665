import { describe, expect, it } from 'vitest';
import { postBody } from '../../../src/channels/feishu/post-content.ts';
import { neutralizeMentions } from '../../../src/safety/neutralize-mentions.ts';

describe('issue 31: crowd mentions in outgoing text ping no one', () => {
  it('Feishu @all in any spelling becomes inline code', () => {
    for (const tag of [
      '<at user_id="all">所有人</at>',
      '<at user_id="all"></at>',
      "<at user_id='all'>everyone</at>",
      '<at id=all></at>',
      '<AT  user_id = "all" >x</AT>',
      '<at user_id="all">',
    ])
      expect(neutralizeMentions(`Heads up ${tag} please look`), tag).toBe('Heads up `@all` please look');
  });

  it('issue 45: a mention of one person pings no one either: their name as inline code', () => {
    expect(neutralizeMentions('thanks <at user_id="ou_123">Ada</at>!')).toBe('thanks `@Ada`!');
    expect(neutralizeMentions('cc <at id=ou_9></at> and <at open_id="ou_7">`Bo` B</at>')).toBe(
      'cc `@someone` and `@Bo B`',
    );
    expect(neutralizeMentions('hey <at email="eve@example.com">')).toBe('hey `@someone`');
    const card = JSON.stringify({
      elements: [{ tag: 'markdown', content: 'ask <at id="ou_1">Ann "A"</at>' }],
    });
    expect(JSON.parse(neutralizeMentions(card)).elements[0].content).toBe('ask `@Ann "A"`');
  });

  it('issue 45: a person the host names is kept', () => {
    const one = 'thanks <at user_id="ou_123">Ada</at>';
    expect(neutralizeMentions(one, ['ou_123'])).toBe(one);
  });

  it('GitHub team mentions become inline code; people, e-mail, paths and code spans are kept', () => {
    expect(neutralizeMentions('cc @acme/security-team and @acme/web.')).toBe(
      'cc `@acme/security-team` and `@acme/web`.',
    );
    expect(neutralizeMentions('@acme/ops\n(@acme/db)')).toBe('`@acme/ops`\n(`@acme/db`)');
    for (const kept of [
      'thanks @ada',
      'mail ada@acme/ops',
      'see https://github.com/@acme/ops',
      'in `@acme/ops` already',
      'path src/@acme/ops',
    ])
      expect(neutralizeMentions(kept), kept).toBe(kept);
  });

  it('a mention the host gave is kept', () => {
    expect(neutralizeMentions('cc @acme/ops', ['@acme/ops'])).toBe('cc @acme/ops');
    expect(neutralizeMentions('<at user_id="all"></at> hi', ['@all'])).toBe('<at user_id="all"></at> hi');
  });

  it('inside a card’s JSON too (escaped quotes), and in every Feishu post', () => {
    const card = JSON.stringify({ elements: [{ tag: 'markdown', content: 'done <at user_id="all"></at>' }] });
    const out = neutralizeMentions(card);
    expect(out).not.toContain('<at');
    expect(JSON.parse(out).elements[0].content).toBe('done `@all`');
    expect(postBody('ping <at user_id="all"></at>', {}).content).not.toContain('<at');
  });
});
