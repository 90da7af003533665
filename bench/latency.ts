import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { startFakeLlm } from '../test/kit/fake-llm.ts';
import { groupMention, sendFeishuEvent } from '../test/kit/feishu-webhook.ts';
import { ackAll, openAll, roleOf, scriptedModel } from '../test/kit/scripted-model.ts';
import { BENCH_ENCRYPT_KEY, startFeishuBench } from './kit.ts';
import type { BenchRow } from './row.ts';
import { quantile } from './stats.ts';

const REQUESTS = 40;

/**
 * Issue 4 `bench/`: from a signed Feishu @-mention to (a) the "seen" reaction at the fake Feishu
 * and (b) the executor's first model request (the main session routes in between; the fake model
 * answers at once). Baseline, same run: the webhook's own HTTP answer time.
 */
export async function benchLatency(): Promise<BenchRow[]> {
  const llm = await startFakeLlm();
  llm.respond(scriptedModel({ main: openAll, executor: ackAll }));
  const { app, feishu, close } = await startFeishuBench(llm);
  const answer: number[] = [];
  const reaction: number[] = [];
  const firstModel: number[] = [];
  try {
    for (let i = 0; i < REQUESTS; i++) {
      const messageId = `om_bench_${i}_${randomUUID().slice(0, 6)}`;
      const marker = `flaky-${randomUUID().slice(0, 8)}`;
      const t0 = performance.now();
      const res = await sendFeishuEvent(
        `${app.url}/webhooks/feishu`,
        groupMention(`fix the ${marker} test`, feishu.bot.openId, { messageId }),
        { encryptKey: BENCH_ENCRYPT_KEY },
      );
      answer.push(performance.now() - t0);
      if (!res.ok) throw new Error(`webhook answered ${res.status}`);
      reaction.push((await until(() => feishu.reactions.some((r) => r.messageId === messageId))) - t0);
      firstModel.push(
        (await until(() =>
          llm.requests.some((r) => roleOf(r) === 'executor' && JSON.stringify(r.messages).includes(marker)),
        )) - t0,
      );
    }
  } finally {
    await close();
    await llm.close();
  }
  const note = `${REQUESTS} sequential @-mentions; baseline: the webhook's HTTP answer, same run`;
  const row = (name: string, xs: number[], p: number): BenchRow => {
    const v = quantile(xs, p);
    const b = quantile(answer, p);
    return { name, value: v, unit: 'ms', baseline: b, ratio: v / b, note };
  };
  return [
    row('webhook → seen reaction p50', reaction, 0.5),
    row('webhook → seen reaction p99', reaction, 0.99),
    row('webhook → executor first model request p50', firstModel, 0.5),
    row('webhook → executor first model request p99', firstModel, 0.99),
  ];
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 1));
  }
  return performance.now();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchLatency(), null, 2)}\n`);
  process.exit(0);
}
