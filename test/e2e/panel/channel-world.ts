import { ENCRYPT_KEY, VERIFY_TOKEN } from '../../integration/feishu/harness.ts';
import { startTestApp, type TestApp, waitFor } from '../../kit/app.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';
import { type FakeLlm, startFakeLlm } from '../../kit/fake-llm.ts';
import { api, TOKEN } from './api.ts';

export interface ChannelWorld {
  llm: FakeLlm;
  feishu: FakeFeishu;
  gh: FakeGitHub;
  app: TestApp;
  /** The id of the first ticket `pred` picks, once there is one. */
  ticketOf: (pred: (t: TicketRow) => boolean) => Promise<string>;
  close: () => Promise<void>;
}

interface TicketRow {
  id: string;
  source: string;
  owners: { requester: { id: string } };
}

/**
 * A bot with the panel on, both channels on loopback fakes (Feishu over HTTP callbacks signed
 * with the harness's keys, GitHub with `secret`) and a scripted model the test answers with —
 * the world of the panel tests that follow a request from a channel to a ticket page.
 */
export async function startChannelWorld(secret: string): Promise<ChannelWorld> {
  const llm = await startFakeLlm();
  const feishu = await startFakeFeishu();
  const gh = await startFakeGitHub({ botLogin: 'switchyard-bot', token: 'ghp_test' });
  const app = await startTestApp({
    ADMIN_TOKEN: TOKEN,
    LLM_BASE_URL: llm.baseURL,
    LLM_API_KEY: 'sk-panel-e2e',
    FEISHU_APP_ID: feishu.appId,
    FEISHU_APP_SECRET: feishu.appSecret,
    FEISHU_ENCRYPT_KEY: ENCRYPT_KEY,
    FEISHU_VERIFICATION_TOKEN: VERIFY_TOKEN,
    FEISHU_DOMAIN: feishu.url,
    FEISHU_EVENT_MODE: 'http',
    GITHUB_WEBHOOK_SECRET: secret,
    GITHUB_TOKEN: 'ghp_test',
    GITHUB_API_URL: gh.url,
    GITHUB_BOT_LOGIN: 'switchyard-bot',
  });
  return {
    llm,
    feishu,
    gh,
    app,
    ticketOf: (pred) =>
      waitFor(
        async () =>
          ((await api(app, 'GET', '/tickets')).body.tickets as TicketRow[]).find(pred)?.id as
            | string
            | undefined,
        'a ticket',
      ),
    close: async () => {
      await app.close();
      await gh.close();
      await feishu.close();
      await llm.close();
    },
  };
}
