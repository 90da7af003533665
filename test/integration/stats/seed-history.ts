import { z } from 'zod';
import { loadCard } from '../../../src/cards/ingest.ts';
import type { Ctx } from '../../../src/context.ts';
import { createModelClient } from '../../../src/session/model-client.ts';
import { runTurn } from '../../../src/session/run-turn.ts';
import { readStepRecords } from '../../../src/session/step-log.ts';
import { defineTool, toolOk } from '../../../src/session/tool.ts';
import { dayOf } from '../../../src/stats/daily-counts.ts';
import { type DepthSample, recordDepthSample } from '../../../src/stats/queue-depth.ts';
import { claimAck } from '../../../src/tickets/acks.ts';
import { createTicket, setTicketState } from '../../../src/tickets/ticket-store.ts';
import { type FakeLlm, text, toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';

const DAY_MS = 86_400_000;

const LOOK = defineTool({
  name: 'look',
  description: 'Look around',
  parameters: z.object({}),
  run: () => toolOk('nothing to see'),
});

/** What a seeded day should show, worked out from what was recorded (the model's usage as it answered). */
export interface SeededDay {
  day: string;
  tickets: { opened: number; done: number; blocked: number };
  ackMs: number[];
  tokens: Record<string, { prompt: number; completion: number; cacheHit: number }>;
  turnMs: Record<string, number[]>;
}

/** A clock stepping `stepMs` each call from `start`: a turn's `now`, so its duration is what it read. */
const clock = (start: number, stepMs: number) => {
  let t = start - stepMs;
  return () => {
    t += stepMs;
    return t;
  };
};

/**
 * Seeds `days` days of history up to today through the product's own recording functions with
 * their clocks set back: tickets opened, done and blocked, acknowledgements, and model turns of
 * the main session and an executor (the fake model answers). Day i (0 = oldest) opens i + 2
 * tickets, finishes one, blocks every third day, acknowledges after (i + 1) × 1.5 s and 3 s, and
 * runs one turn of each kind. Answers what each day should show.
 */
export async function seedHistory(
  ctx: Ctx,
  llm: FakeLlm,
  days: number,
  today = Date.now(),
): Promise<SeededDay[]> {
  const model = createModelClient({
    baseURL: llm.baseURL,
    apiKey: 'test-key',
    model: 'deepseek-flash',
    contract: { provider: 'deepseek', thinking: 'enabled', reasoningEffort: 'high' },
  });
  const out: SeededDay[] = [];
  for (let i = 0; i < days; i++) {
    const noon = Date.parse(dayOf(today - (days - 1 - i) * DAY_MS)) + 12 * 3_600_000;
    const at = (ms: number) => ({ ...ctx, now: () => noon + ms });
    const seeded: SeededDay = {
      day: dayOf(noon),
      tickets: { opened: i + 2, done: 1, blocked: i % 3 === 0 ? 1 : 0 },
      ackMs: [],
      tokens: {},
      turnMs: {},
    };
    const ids: string[] = [];
    for (let n = 0; n < seeded.tickets.opened; n++) {
      const card = await loadCard(ctx, await send(ctx, localMessage(`seeded request ${i}.${n}`)));
      if (!card) throw new Error('the seeded card is gone');
      const ticket = await createTicket(at(n), card, { why: 'seeded' });
      ids.push(ticket.id);
      if (n < 2) {
        const ms = (i + 1) * 1500 * (n + 1);
        await claimAck(at(ms), ticket.id, card.id, `seed-${i}-${n}`, noon);
        seeded.ackMs.push(ms);
      }
    }
    await setTicketState(at(60_000), ids[0] as string, 'done');
    // Set twice: a state set again is not a second change.
    await setTicketState(at(60_001), ids[0] as string, 'done');
    if (seeded.tickets.blocked) await setTicketState(at(60_000), ids[1] as string, 'waiting');
    for (const [kind, stepMs] of [
      ['main', 400 * (i + 1)],
      ['executor', 1000 * (i + 1)],
    ] as const) {
      // A look, then the answer: the second request reuses the first's prefix (cache hits).
      llm.push(toolCalls(['look', {}]), text(`answer ${i} ${kind}`));
      const before = llm.requests.length;
      const sessionId = `seed-${kind}-${ids[0]}`;
      await runTurn({
        sessionId,
        turnId: `seed-turn-${kind}-${i}`,
        // The executor reads more, and more each day: its line stands apart from the main session's.
        input: [
          {
            role: 'user',
            content: `seeded turn ${i} ${kind === 'executor' ? 'x'.repeat(800 * (i + 1)) : ''}`,
          },
        ],
        model,
        tools: [LOOK],
        hooks: { systemPrompt: async () => ({ text: 'You are a seeded session.', revision: 1 }) },
        redis: ctx.redis,
        keys: ctx.keys,
        sessionKind: kind,
        now: clock(noon + 3_600_000, stepMs),
      });
      const u = llm.requests.slice(before).map((r) => r.usage as Record<string, number>);
      seeded.tokens[kind] = {
        prompt: u.reduce((s, x) => s + (x.prompt_tokens ?? 0), 0),
        completion: u.reduce((s, x) => s + (x.completion_tokens ?? 0), 0),
        cacheHit: u.reduce((s, x) => s + (x.prompt_cache_hit_tokens ?? 0), 0),
      };
      // The turn's length as its own clock read it: from its opening record to its end record.
      const records = await readStepRecords(ctx, sessionId);
      const opened = records.find((r) => r.kind === 'turn');
      const ended = records.find((r) => r.kind === 'end');
      if (!opened || !ended) throw new Error('the seeded turn left no records');
      seeded.turnMs[kind] = [ended.at - opened.at];
    }
    out.push(seeded);
  }
  return out;
}

/** Queue-depth samples, one a minute over the last `minutes` minutes: `route` rises then falls. */
export async function seedDepth(ctx: Ctx, minutes: number, now = Date.now()): Promise<DepthSample[]> {
  const samples: DepthSample[] = [];
  for (let m = minutes; m >= 1; m--) {
    const sample = {
      at: now - m * 60_000,
      queues: {
        route: { waiting: Math.min(m, minutes - m) * 2, active: 1 },
        executor: { waiting: m % 4, active: 0 },
      },
    };
    await recordDepthSample(ctx, sample);
    samples.push(sample);
  }
  return samples;
}
