import { startTestApp, type TestApp } from '../../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import {
  type FakeLlm,
  type FakeReply,
  type RecordedRequest,
  startFakeLlm,
  text,
} from '../../kit/fake-llm.ts';
import { cardsIn, openAll, roleOf } from '../../kit/scripted-model.ts';

export const ENCRYPT_KEY = 'status-encrypt-key-0123';
export const GITHUB_SECRET = 'status-webhook-secret';
export const ADMIN_TOKEN = 'status-admin-token-0123456789abcdefghij';

export interface StatusWorld {
  app: TestApp;
  feishu: FakeFeishu;
  gh: FakeGitHub;
  llm: FakeLlm;
  hook: string;
  close(): Promise<void>;
}

/** The product wired to fake Feishu, GitHub and model; only `ou_alice` may steer on Feishu. */
export async function startStatusWorld(): Promise<StatusWorld> {
  const [feishu, gh, llm] = await Promise.all([startFakeFeishu(), startFakeGitHub(), startFakeLlm()]);
  const app = await startTestApp({
    FEISHU_APP_ID: feishu.appId,
    FEISHU_APP_SECRET: feishu.appSecret,
    FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
    FEISHU_VERIFICATION_TOKEN: 'verify-token',
    FEISHU_DOMAIN: feishu.url,
    GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
    GITHUB_TOKEN: 'ghp_status_test',
    GITHUB_API_URL: gh.url,
    GITHUB_BOT_LOGIN: gh.botLogin,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'test-key',
    ALLOWED_USERS: 'feishu:ou_alice',
    ADMIN_TOKEN,
  });
  return {
    app,
    feishu,
    gh,
    llm,
    hook: `${app.url}/webhooks/feishu`,
    async close() {
      await app.close();
      await Promise.all([feishu.close(), gh.close(), llm.close()]);
    },
  };
}

/** One executor turn's script: step `k` answers the turn's k-th model request. */
export type TurnScript = (k: number, card: string) => FakeReply | undefined;

/**
 * A model whose main session opens every candidate and whose executor follows the first script
 * whose trigger text appears in the turn's input.
 */
export function scriptTurns(llm: FakeLlm, scripts: [trigger: string, script: TurnScript][]): void {
  llm.respond((req: RecordedRequest) => {
    if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('Routed.') : openAll(req);
    const lastUser = req.messages.map((m) => m.role).lastIndexOf('user');
    const input = req.messages[lastUser]?.content ?? '';
    const k = req.messages.slice(lastUser).filter((m) => m.role === 'assistant').length;
    const found = scripts.find(([trigger]) => input.includes(trigger));
    const card = cardsIn(req)[0] ?? '';
    return found?.[1](k, card) ?? text('Nothing more to do.');
  });
}

/** Milliseconds between consecutive times. */
export const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - (times[i] ?? t));
