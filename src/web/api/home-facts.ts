import type { Ctx } from '../../context.ts';
import { type DoctorRun, panelDoctor } from '../../doctor/cached-doctor.ts';
import type { Finding } from '../../doctor/finding.ts';
import type { Lang } from '../../i18n/lang.ts';
import { type TroubleSummary, troubleSummary } from '../../outbox/trouble-summary.ts';
import type { Runtime } from '../../runtime.ts';
import { type ModelLast, readModelLast } from '../../session/model-last.ts';
import { CHANNELS, type Channel, readChannelTraffic } from '../../stats/channel-events.ts';
import { listTickets } from '../../tickets/ticket-store.ts';

/** How many of the newest tickets Home counts by state (the tickets page lists as many). */
const TICKETS_COUNTED = 500;
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** One channel on Home: whether it is on, whether the doctor reached it, and its traffic. */
export interface ChannelFacts {
  name: Channel;
  on: boolean;
  /** The doctor's verdict on its service (null: off, or nothing to reach). */
  reachable: boolean | null;
  lastEventAt: number | null;
  eventsLastHour: number;
}

/** What `GET /api/home` answers (issue 33 item 1); docs/panel.md describes it. */
export interface HomeFacts {
  at: number;
  channels: ChannelFacts[];
  model: { provider: string; main: string; executor: string; configured: boolean; last: ModelLast | null };
  doctor: DoctorRun;
  tickets: { byState: Record<string, number>; counted: number; limit: number };
  deliveries: TroubleSummary;
  queues: ({ name: string } & Record<(typeof QUEUE_STATES)[number], number>)[];
}

/**
 * A channel's service as the doctor found it: its first finding is the credentials check
 * (`runDoctor` keeps a fixed order); the panel's local chat needs nothing outside.
 */
function reachable(channel: Channel, on: boolean, findings: readonly Finding[]): boolean | null {
  if (channel === 'local') return true;
  if (!on) return null;
  const first = findings.find((f) => f.check === channel);
  return first ? first.status === 'ok' : null;
}

async function channelFacts(ctx: Ctx, findings: readonly Finding[]): Promise<ChannelFacts[]> {
  const traffic = await readChannelTraffic(ctx, ctx.now());
  const on: Record<Channel, boolean> = {
    feishu: ctx.config.feishuEnabled,
    github: ctx.config.githubEnabled,
    local: true,
  };
  return CHANNELS.map((name) => ({
    name,
    on: on[name],
    reachable: reachable(name, on[name], findings),
    lastEventAt: traffic[name].lastAt,
    eventsLastHour: traffic[name].lastHour,
  }));
}

async function ticketsByState(ctx: Ctx): Promise<HomeFacts['tickets']> {
  const tickets = await listTickets(ctx, TICKETS_COUNTED);
  const byState: Record<string, number> = {};
  for (const t of tickets) byState[t.state] = (byState[t.state] ?? 0) + 1;
  return { byState, counted: tickets.length, limit: TICKETS_COUNTED };
}

async function queueCounts(ctx: Ctx): Promise<HomeFacts['queues']> {
  return Promise.all(
    Object.entries(ctx.queues).map(async ([name, queue]) => {
      const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
      const waiting = (c.waiting ?? 0) + (c.prioritized ?? 0);
      return { name, waiting, active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 };
    }),
  );
}

/** Problems first, then what is off, then what is fine: the order a person acts in. */
const RANK = { problem: 0, off: 1, ok: 2 } as const;

/** Everything Home shows, read now (the doctor's run at most a minute old). */
export async function homeFacts(ctx: Ctx, rt: Pick<Runtime, 'models'>, lang: Lang): Promise<HomeFacts> {
  const [doctor, last, tickets, deliveries, queues] = await Promise.all([
    panelDoctor(ctx, rt, lang),
    readModelLast(ctx),
    ticketsByState(ctx),
    troubleSummary(ctx),
    queueCounts(ctx),
  ]);
  const findings = [...doctor.findings].sort((a, b) => RANK[a.status] - RANK[b.status]);
  const { config } = ctx;
  return {
    at: ctx.now(),
    channels: await channelFacts(ctx, doctor.findings),
    model: {
      provider: config.llmProvider,
      main: config.mainModel,
      executor: config.executorModel,
      configured: Boolean(rt.models.main ?? rt.models.executor),
      last,
    },
    doctor: { at: doctor.at, findings },
    tickets,
    deliveries,
    queues,
  };
}
