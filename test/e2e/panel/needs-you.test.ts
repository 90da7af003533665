import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCardFate } from '../../../src/cards/event-log.ts';
import { loadCard } from '../../../src/cards/ingest.ts';
import { saveTicketPr } from '../../../src/executor/workspace/delivery-records.ts';
import { FORCED_REASON } from '../../../src/router/open-forced.ts';
import { openQuestion } from '../../../src/status/status-facts.ts';
import { pauseTicket } from '../../../src/tickets/pause.ts';
import { createTicket, setTicketState, updateTicket } from '../../../src/tickets/ticket-store.ts';
import { localMessage, send } from '../../integration/routing/helpers.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { TOKEN } from './api.ts';
import { launchChromium, shoot, signedInPage } from './browser.ts';

const QUESTION = 'Keep the old module name as an alias?';
const HOSTILE = '<img src=x onerror="window.__pwned=1">Please rename the config module';

/**
 * Issue 49 items 3 and 4 in Chromium: "Needs you" on Home and atop Tickets (the question, the
 * blocked ticket, the budget's pause, each with its action), the ticket filters the server
 * applies, `/` and `?`, and the events inbox's excerpt and plain reason.
 */
describe('issue 49: needs you, finding tickets, plain events', () => {
  let app: TestApp;
  let browser: Browser;
  const ids: Record<string, string> = {};
  const openTicket = async (name: string, text: string, user: string) => {
    const cardId = await send(app.ctx, localMessage(text, { user }));
    const card = (await loadCard(app.ctx, cardId))!;
    ids[name] = (await createTicket(app.ctx, card, { why: 'explicit request' })).id;
    return ids[name];
  };
  beforeAll(async () => {
    app = await startTestApp({ ADMIN_TOKEN: TOKEN }, { workers: false });
    browser = await launchChromium();
    const { ctx } = app;
    const open = async (name: string, text: string, user: string) => {
      const cardId = await send(ctx, localMessage(text, { user }));
      const card = (await loadCard(ctx, cardId))!;
      ids[name] = (await createTicket(ctx, card, { why: 'explicit request' })).id;
      if (name === 'asking')
        await recordCardFate(ctx, card, { fate: 'opened', tickets: [ids[name]], reason: FORCED_REASON });
      return ids[name];
    };
    const asking = await open('asking', HOSTILE, 'ada');
    await setTicketState(ctx, asking, 'waiting');
    await openQuestion(ctx, asking, { question: QUESTION, choices: ['yes', 'no'], turnId: 't1', at: 10 });
    const blocked = await open('blocked', 'Fix the flaky login test', 'grace');
    await setTicketState(ctx, blocked, 'waiting');
    await updateTicket(ctx, blocked, { repo: 'acme/app' });
    await saveTicketPr(ctx, blocked, {
      repo: 'acme/app',
      number: 7,
      nodeId: 'PR_7',
      url: 'https://github.com/acme/app/pull/7',
    });
    await pauseTicket(ctx, await open('spent', 'Write the changelog', 'grace'), {
      by: 'budget',
      at: 13,
      via: 'budget',
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('Home lists what waits on a person, with the question and each action', {
    timeout: 60_000,
  }, async () => {
    const { page, problems } = await signedInPage(browser, app.url, TOKEN);
    const needs = page.locator('[data-home="needs"]');
    await needs.getByRole('heading', { name: 'Needs you (3)', level: 2 }).waitFor();
    const asking = needs.locator(`li[data-need="answer"][data-ticket="${ids.asking}"]`);
    await asking.getByText(QUESTION).waitFor();
    expect(await asking.getByRole('link', { name: 'Answer in Try it' }).getAttribute('href')).toBe('#/try');
    const blocked = needs.locator(`li[data-need="blocked"][data-ticket="${ids.blocked}"]`);
    expect(await blocked.getByRole('link', { name: 'Open ticket' }).getAttribute('href')).toBe(
      `#/tickets/${ids.blocked}`,
    );
    await needs
      .locator(`li[data-need="budget"][data-ticket="${ids.spent}"]`)
      .getByText('Budget spent')
      .waitFor();
    // The requester's text is shown as text, never run.
    await asking.getByRole('link', { name: HOSTILE }).waitFor();
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await shoot(page, '49-home-needs', { fullPage: true });
    // In Chinese too, on a phone.
    await page.getByRole('button', { name: '中文' }).click();
    await needs.getByRole('heading', { name: '需要你处理（3）' }).waitFor();
    await blocked.getByText('工作已停止，正在等人处理：打开工单查看原因。').waitFor();
    await page.setViewportSize({ width: 390, height: 900 });
    await shoot(page, '49-home-needs-zh-390', { fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Tickets: needs you on top, filters applied by the server, "/" to search and "?" for the shortcuts', {
    timeout: 60_000,
  }, async () => {
    const { page, problems } = await signedInPage(browser, app.url, TOKEN);
    await page.locator(`[data-home="needs"] li[data-ticket="${ids.asking}"]`).waitFor();
    await page.keyboard.press('/');
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.locator('.tickets-needs li[data-need="answer"]').getByText(QUESTION).waitFor();
    const rows = () =>
      page.locator('tbody tr').evaluateAll((r) => r.map((x) => x.getAttribute('data-ticket')).sort());
    await expect.poll(rows).toEqual([ids.asking, ids.blocked, ids.spent].sort());

    await search.fill('flaky');
    await expect.poll(rows).toEqual([ids.blocked]);
    await search.fill('');
    await page.getByLabel('Waiting on').selectOption('budget');
    await expect.poll(rows).toEqual([ids.spent]);
    await page.getByLabel('Waiting on').selectOption('');
    await page.getByLabel('Pull request').selectOption('yes');
    await expect.poll(rows).toEqual([ids.blocked]);
    await page.getByRole('link', { name: 'acme/app#7' }).waitFor();
    await page.getByLabel('Requester').fill('ada');
    await page.getByText('No ticket matches these filters.').waitFor();
    await shoot(page, '49-tickets-filtered');

    await page.getByRole('heading', { name: 'Tickets', level: 1 }).click();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.getByText('Search tickets').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Refreshed by itself: a ticket opened now shows up without a reload.
    await page.getByLabel('Requester').fill('');
    await expect.poll(rows).toEqual([ids.blocked]);
    await page.getByLabel('Pull request').selectOption('');
    await expect.poll(rows).toEqual([ids.asking, ids.blocked, ids.spent].sort());
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).click();
    const late = await openTicket('late', 'Tidy the README', 'linus');
    await page.locator(`tbody tr[data-ticket="${late}"]`).waitFor({ timeout: 20_000 });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Events: the message excerpt as text, and the reason in plain words with the recorded one under Details', {
    timeout: 60_000,
  }, async () => {
    const { page, problems } = await signedInPage(browser, app.url, TOKEN);
    await page.goto(`${app.url}/panel/#/events`);
    const row = page.locator('tr[data-fate="opened"]');
    await row.locator('td.event-excerpt', { hasText: HOSTILE }).waitFor();
    await row
      .getByText('A new request that no open ticket matched, so a ticket was opened for it.')
      .waitFor();
    expect(await row.locator('details.reason-raw').textContent()).toContain('admitted by R-B8');
    expect(await row.locator('details.reason-raw').getAttribute('open')).toBeNull();
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await shoot(page, '49-events');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
