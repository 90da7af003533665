import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { getPause, pauseLog } from '../../../src/tickets/pause.ts';
import { ENCRYPT_KEY } from '../../integration/feishu/harness.ts';
import { executorRequestsOf, handNanos, sumNanos } from '../../integration/stats/cost-kit.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { groupMention, sendFeishuEvent } from '../../kit/feishu-webhook.ts';
import { githubPayloads as P, sendGitHubEvent } from '../../kit/github-webhook.ts';
import { ackAll, continues, openAll, roleOf } from '../../kit/scripted-model.ts';
import { api, TOKEN } from './api.ts';
import { launchChromium, partShot, shoot, signedInPage } from './browser.ts';
import { startChannelWorld } from './channel-world.ts';

/** The committed picture in docs/panel.md; rewritten only when `UPDATE_DOCS_SCREENSHOTS=1` asks. */
const DOCS_SHOT = join(import.meta.dirname, '..', '..', '..', 'docs', 'panel-cost.png');
const SECRET = 'cost-e2e-webhook-secret';
const RUNAWAY = 'keep improving the exporter forever';

/** As the panel writes dollars (`cost-section.js`): four decimals under a dollar, two above. */
const usd = (nanos: number) => {
  const v = nanos / 1e9;
  return `$${v < 1 ? v.toFixed(4) : v.toFixed(2)}`;
};

/**
 * The model: the main session opens every candidate; an executor acknowledges, reports done and
 * ends — except the runaway request's, which reports "working" for ever (100k-token prompts) until
 * `finish` is set. Every answer carries DeepSeek usage large enough to price well above rounding.
 */
function model(state: { finish: boolean }) {
  return (req: RecordedRequest) => {
    if (roleOf(req) === 'main')
      return { ...(continues(req) ? text('Routed.') : openAll(req)), usage: big(20_000) };
    const runaway = JSON.stringify(req.messages).includes(RUNAWAY);
    if (runaway && !state.finish)
      return {
        ...toolCalls(['report', { status: 'working', summary: 'Still going.' }]),
        usage: big(100_000),
      };
    if (!continues(req)) return { ...ackAll(req), usage: big(30_000) };
    const reported = req.messages.some((m) =>
      m.tool_calls?.some((c) => c.function.name === 'report' && c.function.arguments.includes('"done"')),
    );
    return reported
      ? text('Done.', big(31_000))
      : { ...toolCalls(['report', { status: 'done', summary: 'Answered.' }]), usage: big(30_500) };
  };
}
const big = (prompt: number) => ({ prompt_tokens: prompt, completion_tokens: 900 });

/** The rows of one "cost by …" table as [name, dollars]. */
const costRows = (page: Page, by: string) =>
  page
    .locator(`figure[data-cost-by="${by}"] tbody tr`)
    .evaluateAll((rows) =>
      rows.map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent]),
    );

it('issue 33 item 5: the Charts page shows the cost the fake provider’s usage comes to per ticket, chat, repository and day; a budget set in the panel pauses a ticket, tells its requester on Feishu, and raising it lets the work go on', {
  timeout: 180_000,
}, async () => {
  const state = { finish: false };
  const world = await startChannelWorld(SECRET);
  const { llm, feishu, app, ticketOf } = world;
  llm.respond(model(state));
  const browser = await launchChromium();
  const feishuAsk = async (text: string, chatId: string, messageId: string) => {
    const event = groupMention(text, feishu.bot.openId, { chatId, messageId, senderOpenId: 'ou_alice' });
    expect(
      (await sendFeishuEvent(`${app.url}/webhooks/feishu`, event, { encryptKey: ENCRYPT_KEY })).status,
    ).toBe(200);
  };
  const stateOf = async (id: string) => (await api(app, 'GET', `/tickets/${id}`)).body.ticket.state;
  try {
    // A Feishu request in oc_team and a GitHub one on acme/widgets#7, each done in a few requests.
    await feishuAsk('please answer the export question', 'oc_team', 'om_cost_1');
    const fromFeishu = await ticketOf((t) => t.source === 'feishu');
    await sendGitHubEvent(app.url, 'issue_comment', P.mentionComment({ author: 'ada' }), { secret: SECRET });
    const fromGitHub = await ticketOf((t) => t.source === 'github');
    for (const id of [fromFeishu, fromGitHub])
      await waitFor(async () => (await stateOf(id)) === 'done', `${id} done`);
    // Settled: the day's cost is every request the fake answered, the main session's too.
    const dayNanos = async () =>
      Math.round((await api(app, 'GET', '/stats/daily?days=1')).body.days[0].cost.usd * 1e9);
    // Quiet for a second (the executors' closing answers and the main turns their reports start).
    let seen = -1;
    await waitFor(
      async () => {
        const now = llm.requests.length;
        const still =
          now === seen && llm.requests.every((r) => r.usage) && (await dayNanos()) === sumNanos(llm.requests);
        seen = now;
        if (!still) await new Promise((r) => setTimeout(r, 1000));
        return still;
      },
      'the day’s cost',
      30_000,
    );
    const feishuNanos = sumNanos(executorRequestsOf(llm.requests, fromFeishu));
    const githubNanos = sumNanos(executorRequestsOf(llm.requests, fromGitHub));
    expect(feishuNanos).toBeGreaterThan(0);
    expect(githubNanos).toBeGreaterThan(0);
    const githubChat = (await api(app, 'GET', `/tickets/${fromGitHub}`)).body.ticket.conversation;

    const { page, problems } = await signedInPage(browser, app.url, TOKEN);
    await page.getByRole('navigation', { name: 'Panel pages' }).getByRole('link', { name: 'Charts' }).click();
    await page.goto(`${app.url}/panel/#/charts/7`);
    await page.locator('figure[data-cost-by="tickets"] tbody tr').first().waitFor();

    // Each figure is the fake's reported usage at DeepSeek's list price, computed here by hand.
    const all = sumNanos(llm.requests);
    await expect(page.locator('[data-cost-total]').textContent()).resolves.toBe(
      `${usd(all)} in all, ${usd(all)} today`,
    );
    expect((await costRows(page, 'tickets')).sort()).toEqual(
      [
        [fromFeishu, usd(feishuNanos)],
        [fromGitHub, usd(githubNanos)],
      ].sort(),
    );
    expect(await costRows(page, 'repos')).toEqual([['acme/widgets', usd(githubNanos)]]);
    expect((await costRows(page, 'chats')).sort()).toEqual(
      [
        ['oc_team', usd(feishuNanos)],
        [githubChat, usd(githubNanos)],
      ].sort(),
    );
    // The cost-per-day chart's table: today's row holds the day's total.
    const lastDay = page.locator('figure[data-chart="cost"] .chart-data tbody tr').last();
    await expect(lastDay.locator('td').first().textContent()).resolves.toContain((all / 1e9).toFixed(4));

    // A ticket budget of $0.04, set in the panel.
    const budgets = page.locator('#budgets');
    await budgets.getByLabel('Per ticket (USD)').fill('0.04');
    await budgets.getByRole('button', { name: 'Save budgets' }).click();
    const inForce = budgets.locator('[data-budgets]', { hasText: '$0.0400 per ticket' });
    await inForce.waitFor();
    await expect(inForce.textContent()).resolves.toMatch(/\$0\.0400 per ticket, none per day · set by ada/);
    expect((await api(app, 'GET', '/budgets')).body).toMatchObject({ ticketUsd: 0.04, dailyUsd: 0 });

    // A runaway request: its executor is stopped before the request after the one that spent $0.04.
    await feishuAsk(RUNAWAY, 'oc_ops', 'om_cost_runaway');
    const runaway = await ticketOf((t) => t.source === 'feishu' && t.id !== fromFeishu);
    const told = await waitFor(
      () =>
        feishu.messages.find(
          (m) => m.parentId === 'om_cost_runaway' && m.text?.includes(`I paused ${runaway}`),
        ),
      'the budget message on Feishu',
    );
    expect(told.text).toContain('budget of $0.0400 per ticket');
    expect(await getPause(app.ctx, runaway)).toMatchObject({ via: 'budget' });
    const own = executorRequestsOf(llm.requests, runaway);
    const spent = sumNanos(own);
    expect(spent).toBeGreaterThanOrEqual(0.04e9);
    expect(spent - handNanos(own.at(-1) as RecordedRequest)).toBeLessThan(0.04e9);

    // The panel shows it paused by the budget, with what it cost.
    await page.reload();
    const held = page.locator('#budgets [data-held]');
    await held.getByRole('link', { name: runaway }).waitFor();
    await page.evaluate(() => {
      for (const el of document.querySelectorAll<HTMLElement>('.topbar')) el.style.position = 'static';
    });
    await partShot(page, 'cost', { selector: '.cost-section', docs: DOCS_SHOT });
    await held.getByRole('link', { name: runaway }).click();
    await page.getByText(/Paused by budget, .* \(via budget\)/).waitFor();
    await expect(page.locator('[data-cost="ticket"]').textContent()).resolves.toBe(
      `Cost so far: ${usd(spent)}`,
    );
    await shoot(page, 'cost-ticket-paused');

    // Raised in the panel: the ticket goes on by itself (and this time finishes).
    state.finish = true;
    await page.goto(`${app.url}/panel/#/charts/7`);
    await budgets.getByLabel('Per ticket (USD)').fill('1');
    await budgets.getByRole('button', { name: 'Save budgets' }).click();
    await page.locator('#toast', { hasText: `Budgets saved; resumed: ${runaway}.` }).waitFor();
    await waitFor(async () => (await stateOf(runaway)) === 'done', 'the runaway ticket to finish');
    expect(await getPause(app.ctx, runaway)).toBeUndefined();
    const resumes = (await pauseLog(app.ctx, runaway)).filter(
      (e) => e.kind === 'resume' && e.by === 'budget',
    );
    expect(resumes).toHaveLength(1);
    await expect(page.locator('#budgets [data-held]').count()).resolves.toBe(0);
    expect(feishu.messages.filter((m) => m.text?.includes(`I paused ${runaway}`))).toHaveLength(1);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
    await world.close();
  }
});
