import { expect, it } from 'vitest';
import { ENCRYPT_KEY } from '../../integration/feishu/harness.ts';
import { groupMention, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { ackAll, openAll, scriptedModel } from '../../kit/scripted-model.ts';
import { TOKEN } from './api.ts';
import { launchChromium, shoot, signedInPage } from './browser.ts';
import { startChannelWorld } from './channel-world.ts';

const SECRET = 'names-e2e-webhook-secret';
const ALICE = 'ou_7d8a6e6df7621556ce0d21922b676706';
const OUTSIDER = 'ou_0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f';

it('issue 33 item 3: ticket pages show a Feishu requester by the name the contact API gives, one it refuses as a shortened open_id, a GitHub login as it is', {
  timeout: 120_000,
}, async () => {
  const world = await startChannelWorld(SECRET);
  const { llm, feishu, app, ticketOf } = world;
  llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
  // Alice is in the app's contacts range; the outsider is not (Feishu answers 41050).
  feishu.contacts.add(ALICE, { name: 'Alice Zhang' });
  const browser = await launchChromium();
  const feishuAsk = async (openId: string, chatId: string) => {
    const event = groupMention('please fix the export button', feishu.bot.openId, {
      senderOpenId: openId,
      chatId,
    });
    expect(
      (await sendFeishuEvent(`${app.url}/webhooks/feishu`, event, { encryptKey: ENCRYPT_KEY })).status,
    ).toBe(200);
    return ticketOf((t) => t.owners.requester.id === openId);
  };
  try {
    const named = await feishuAsk(ALICE, 'oc_names_a');
    const refused = await feishuAsk(OUTSIDER, 'oc_names_b');
    await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment({ author: 'ada' }), { secret: SECRET });
    const fromGitHub = await ticketOf((t) => t.source === 'github');

    const { page, problems } = await signedInPage(browser, app.url, TOKEN);
    const people = async (id: string) => {
      await page.goto(`${app.url}/panel/#/tickets/${id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(`^${id}:`) }).waitFor();
      const meta = page.locator('.page-head .person');
      const author = page.locator('ol.timeline > li[data-kind="message"] .person').first();
      await author.waitFor();
      return {
        requester: [await meta.textContent(), await meta.getAttribute('title')],
        author: [await author.textContent(), await author.getAttribute('title')],
      };
    };

    // Named: the name, the open_id in its tooltip — in the header and on the card.
    expect(await people(named)).toEqual({
      requester: ['Alice Zhang', ALICE],
      author: ['Alice Zhang', ALICE],
    });
    await expect(page.locator('.page-head .head-facts').textContent()).resolves.toContain(
      'asked by Alice Zhang on Feishu',
    );
    await shoot(page, 'ticket-named-requester');
    // Refused by Feishu (41050): the open_id shortened, the whole id in its tooltip.
    expect(await people(refused)).toEqual({
      requester: ['ou_0c1d…4e5f', OUTSIDER],
      author: ['ou_0c1d…4e5f', OUTSIDER],
    });
    // A GitHub login is a name already: Feishu's contact API is never asked about it.
    expect(await people(fromGitHub)).toEqual({ requester: ['ada', null], author: ['ada', null] });
    const asked = feishu
      .callsTo(/^\/open-apis\/contact\/v3\/users\//)
      .map((c) => [c.path.split('/').pop(), c.status]);
    expect(asked.sort()).toEqual(
      [
        [ALICE, 200],
        [OUTSIDER, 400],
      ].sort(),
    );
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
    await world.close();
  }
});
