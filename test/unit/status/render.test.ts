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
  step: 'edit_file',
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

/** A text golden file, compared as it is. */
function matchGoldenText(name: string, text: string): void {
  const path = golden(name);
  if (process.env.UPDATE_GOLDEN || !existsSync(path)) writeFileSync(path, `${text}\n`);
  expect(`${text}\n`).toBe(readFileSync(path, 'utf8'));
}

/** Compares with the golden file; `UPDATE_GOLDEN=1` rewrites it (look at the diff first). */
function matchGolden(name: string, value: unknown): void {
  const path = golden(name);
  if (process.env.UPDATE_GOLDEN || !existsSync(path))
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  // Compared as JSON: the formatter (Biome) may lay the file out differently.
  expect(value).toEqual(JSON.parse(readFileSync(path, 'utf8')));
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
    expect(formatElapsed('en', 30_000)).toBe('under a minute');
    expect(formatElapsed('en', 4 * 60_000 + 59_000)).toBe('4 min');
    expect(formatElapsed('en', 3_725_000)).toBe('1 h 2 min');
    expect(formatElapsed('zh-CN', 3_725_000)).toBe('1 小时 2 分钟');
  });
  for (const state of ['waiting', 'paused'] as const) {
    it(`issue 16: a Chinese ticket's ${state} card matches its golden file (Chinese by default, English for English clients)`, () => {
      matchGolden(`card-${state}.zh-CN.json`, renderFeishuCard({ ...STATES[state], lang: 'zh-CN' }));
    });
  }

  it("issue 16: every host word of the card is in both languages; the executor's words are not translated", () => {
    const card = renderFeishuCard(STATES.waiting) as {
      config: { locales: string[]; summary: { i18n_content: Record<string, string> } };
      header: { subtitle: { content: string; i18n_content: Record<string, string> } };
      body: { elements: { content?: string; i18n_content?: Record<string, string> }[] };
    };
    expect(card.config.locales).toEqual(['en_us', 'zh_cn']);
    expect(card.header.subtitle).toMatchObject({
      content: '❓ Waiting for an answer',
      i18n_content: { en_us: '❓ Waiting for an answer', zh_cn: '❓ 等待回答' },
    });
    expect(card.config.summary.i18n_content.zh_cn).toBe('T7 · 等待回答');
    const body = card.body.elements[0]?.i18n_content ?? {};
    expect(body.zh_cn).toContain('**问题：** Which database should the cache use?');
    expect(body.zh_cn).toContain('**已用预算：** 9 次模型请求，12,345 个 token');
    expect(body.en_us).toBe(card.body.elements[0]?.content);
    const buttons = JSON.stringify(card.body.elements[1]);
    expect(buttons).toContain('"zh_cn":"暂停"');
    expect(buttons).toContain('"content":"Postgres"');
  });

  it('issue 16: the GitHub comment of a Chinese ticket is Chinese, and says how to pause', () => {
    const md = renderStatusMarkdown({ ...STATES.working, lang: 'zh-CN' }, { hint: true });
    matchGoldenText('comment-working.zh-CN.md', md);
    expect(md).toContain('### 🔄 T7 · 进行中');
    expect(md).toContain('**当前：** 编辑文件');
    expect(md).toContain('`/pause`（暂停）');
  });
});
