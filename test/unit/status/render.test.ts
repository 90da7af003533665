import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderFeishuCard } from '../../../src/status/render-feishu-card.ts';
import { renderStatusMarkdown } from '../../../src/status/render-status-markdown.ts';
import { deriveState, type StatusState, type TicketStatus } from '../../../src/status/status-model.ts';
import { formatElapsed } from '../../../src/status/status-texts.ts';

const golden = (name: string) => fileURLToPath(new URL(`../../fixtures/status/${name}`, import.meta.url));

const base: TicketStatus = {
  ticketId: 'T7',
  title: 'Fix the login redirect loop',
  state: 'working',
  step: 'editing files',
  summary: 'Found the loop in src/login.ts; fixing the fallback.',
  branch: {
    name: 'sy/T7-fix-the-login-redirect-loop',
    url: 'https://github.com/acme/web/tree/sy/T7-fix-the-login-redirect-loop',
  },
  pr: { label: 'acme/web#12', url: 'https://github.com/acme/web/pull/12' },
  elapsedMs: 4 * 60_000 + 5_000,
  usage: { modelRequests: 9, tokens: 12_345 },
};
const question = {
  question: 'Which database should the cache use?',
  choices: ['SQLite', 'Postgres'],
  turnId: 't1',
  at: 1,
};

/** One status per state, as the card shows it. */
const STATES: Record<StatusState, TicketStatus> = {
  working: base,
  waiting: { ...base, state: 'waiting', question },
  paused: { ...base, state: 'paused', pausedBy: 'Ada' },
  blocked: { ...base, state: 'blocked', summary: 'the model_requests budget ran out (40 of 40)' },
  done: { ...base, state: 'done', summary: 'PR ready for review.', elapsedMs: 3_725_000 },
};

/** Compares with the golden file; `UPDATE_GOLDEN=1` rewrites it (look at the diff first). */
function matchGolden(name: string, value: unknown): void {
  const path = golden(name);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN || !existsSync(path)) writeFileSync(path, text);
  expect(text).toBe(readFileSync(path, 'utf8'));
}

describe('status card rendering (issue 9)', () => {
  for (const [state, status] of Object.entries(STATES)) {
    it(`the ${state} card matches its golden file`, () => {
      matchGolden(`card-${state}.json`, renderFeishuCard(status));
    });
  }

  it('cards are JSON 2.0 with the state in the header and Pause, Resume and answer buttons by state', () => {
    const actions = (s: TicketStatus) => JSON.stringify(renderFeishuCard(s)).match(/"action":"[^"]+"/g) ?? [];
    expect(renderFeishuCard(base)).toMatchObject({ schema: '2.0', header: { template: 'blue' } });
    expect(actions(STATES.working)).toEqual(['"action":"pause"']);
    expect(actions(STATES.waiting)).toEqual([
      '"action":"pause"',
      '"action":"answer:1"',
      '"action":"answer:2"',
    ]);
    expect(actions(STATES.paused)).toEqual(['"action":"resume"']);
    expect(actions(STATES.done)).toEqual([]);
  });

  it('an answered question shows the answer and no answer buttons', () => {
    const answered = { ...question, answer: { choice: 2, text: 'Postgres', by: 'Ada', at: 2, askedAt: 1 } };
    const card = JSON.stringify(renderFeishuCard({ ...base, question: answered }));
    expect(card).toContain('**Answered:** Postgres (Ada)');
    expect(card).not.toContain('answer:');
  });

  it('the GitHub comment carries the same facts and says how to pause', () => {
    const md = renderStatusMarkdown(STATES.waiting, { hint: true });
    expect(md).toContain('### ❓ T7 · Waiting for an answer');
    expect(md).toContain('**Question:** Which database should the cache use?');
    expect(md).toContain('2. Postgres');
    expect(md).toContain('[acme/web#12](https://github.com/acme/web/pull/12)');
    expect(md).toContain('/pause');
    expect(renderStatusMarkdown(STATES.done, { hint: true })).not.toContain('/pause');
  });

  it('state: a pause outranks a question, a question outranks blocked, waiting alone is blocked', () => {
    expect(deriveState({ ticketState: 'working', paused: true, question })).toBe('paused');
    expect(deriveState({ ticketState: 'waiting', paused: false, question })).toBe('waiting');
    expect(deriveState({ ticketState: 'waiting', paused: false, question: undefined })).toBe('blocked');
    expect(deriveState({ ticketState: 'done', paused: false, question })).toBe('done');
    expect(deriveState({ ticketState: 'open', paused: false, question: undefined })).toBe('working');
  });

  it('elapsed time is in minutes, so re-renders within a minute are identical', () => {
    expect(formatElapsed(30_000)).toBe('under a minute');
    expect(formatElapsed(4 * 60_000 + 59_000)).toBe('4 min');
    expect(formatElapsed(3_725_000)).toBe('1 h 2 min');
  });
});
