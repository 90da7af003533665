import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspacePaths } from '../../../src/executor/workspace/workspace.ts';
import { reportsOf } from '../../../src/tickets/reports.ts';
import { launchChromium, shoot, signIn } from '../../e2e/panel/browser.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, continues, lastToolResults, openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';
import { SECRETS, startWorld, type World } from './harness.ts';

const COMMAND = 'touch started; sleep 6; echo slept';

/**
 * An executor that acknowledges, runs a command that holds its call open for a few seconds, then
 * reports done; every executor request is kept (their usage is what the budget must add up to).
 */
function slowCommandScript(w: World) {
  const executor: RecordedRequest[] = [];
  w.llm.respond((req) => {
    if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
    executor.push(req);
    const results = continues(req) ? lastToolResults(req).join('\n') : '';
    if (results.includes('recorded done')) return text('Done.');
    if (results.includes('slept')) return toolCalls(['report', { status: 'done', summary: 'Slept.' }]);
    if (!continues(req)) return toolCalls(['reply', { to: cardsIn(req)[0], text: 'On it.' }]);
    return toolCalls(['run_command', { command: COMMAND }]);
  });
  return executor;
}

const ticketApi = async (w: World, id: string) => {
  const res = await fetch(`${w.app.url}/api/tickets/${id}`, {
    headers: { authorization: `Bearer ${SECRETS.ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    status: {
      state: string;
      step?: string;
      call?: { tool: string; detail?: string; ms: number; endedAt?: number };
      usage: { modelRequests: number; tokens: number };
    };
  };
};

describe('the ticket shows the call under way and the budget after every request (issue 33 item 3)', () => {
  let w: World;
  let browser: Browser;
  beforeAll(async () => {
    w = await startWorld();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await w?.close();
  });

  it('mid-turn: run_command with its command and a growing elapsed time, a nonzero budget in the API and on the ticket page; settled: the budget is the sum of the requests, counted once', async () => {
    const executor = slowCommandScript(w);
    const card = await send(w.app.ctx, localMessage('Please run the slow check of acme/web'));
    const ticket = await ticketOpenedBy(w.app.ctx, card);
    await waitFor(
      () => existsSync(join(workspacePaths(w.app.ctx, ticket).dir, 'started')),
      'the command',
      30_000,
    );

    // The command holds its call open: the status names it, with its words and its time so far.
    const first = (await ticketApi(w, ticket)).status;
    expect(first.state).toBe('working');
    expect(first.step).toBe('run_command');
    expect(first.call).toMatchObject({ tool: 'run_command', detail: COMMAND });
    expect(first.call?.endedAt).toBeUndefined();
    // Two requests stored so far (the acknowledgement's and the command's), before the turn ends.
    expect(first.usage.modelRequests).toBe(2);
    const soFar = executor.slice(0, 2).reduce((n, r) => n + Number(r.usage?.total_tokens ?? 0), 0);
    expect(first.usage.tokens).toBe(soFar);
    await new Promise((r) => setTimeout(r, 1100));
    const later = (await ticketApi(w, ticket)).status;
    expect(later.call?.ms ?? 0).toBeGreaterThan((first.call?.ms ?? 0) + 900);

    // The ticket page shows it too, in Chromium.
    const page = await browser.newPage();
    await signIn(page, w.app.url, SECRETS.ADMIN_TOKEN);
    await page.goto(`${w.app.url}/panel/#/tickets/${ticket}`);
    const step = page.locator('[data-now-step="tool"]');
    await step.waitFor();
    expect(await step.textContent()).toMatch(
      /^Running run_command touch started; sleep 6; echo slept · \d+ s$/,
    );
    expect(await page.locator('[data-budget]').textContent()).toMatch(
      /^Budget used: 2 model requests, [\d,]+ tokens$/,
    );
    await page.locator('[data-now]').scrollIntoViewIfNeeded();
    await shoot(page, 'ticket-now');
    await page.close();

    await waitFor(
      async () => (await reportsOf(w.app.ctx, ticket)).some((r) => r.status === 'done'),
      'the done report',
      30_000,
    );
    const end = await waitFor(async () => {
      const s = (await ticketApi(w, ticket)).status;
      return s.state === 'done' && !s.call && s.usage.modelRequests === executor.length ? s : undefined;
    }, 'the settled turn');
    // Each request counted once, as it was stored: nothing added again at the turn's end.
    expect(end.usage.tokens).toBe(executor.reduce((n, r) => n + Number(r.usage?.total_tokens ?? 0), 0));
    await new Promise((r) => setTimeout(r, 300));
    expect((await ticketApi(w, ticket)).status.usage.modelRequests).toBe(executor.length);
  }, 90_000);
});
