import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getTicket } from '../../../src/tickets/ticket-store.ts';
import { waitFor } from '../../kit/app.ts';
import { type RecordedRequest, text, toolCalls } from '../../kit/fake-llm.ts';
import { cardsIn, continues, inputOf, roleOf, ticketOf } from '../../kit/scripted-model.ts';
import { startWorld, type World } from '../executor/harness.ts';
import { localMessage, send, ticketOpenedBy } from '../routing/helpers.ts';

/** The `## Environment` section of a system prompt: its `- key: value` lines. */
function environmentOf(req: RecordedRequest): Record<string, string> {
  const system = req.system ?? '';
  const start = system.indexOf('## Environment');
  const rest = system.slice(start + 1);
  const end = rest.search(/\n## /);
  const section = end === -1 ? rest : rest.slice(0, end);
  return Object.fromEntries(
    [...section.matchAll(/^- ([^:\n]+): (.*)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
}

/**
 * Seed 004, "environment 段落向主 Session 提供整个部署范围的取值，向每个 Executor 提供其 Ticket 特有的取值"
 * (R-E8): the builders of the environment section, read in the prompts the model was sent.
 */
describe('the environment section (R-E8)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-E8: the main session is told the deployment’s values and no ticket’s; each executor its own ticket’s', async () => {
    w.llm.respond((req) => {
      if (roleOf(req) === 'main')
        return continues(req) || !cardsIn(req).length
          ? text('Routed.')
          : toolCalls([
              'orchestrator_route',
              { decisions: cardsIn(req).map((card) => ({ card, action: 'ignore' })) },
            ]);
      const readme = inputOf(req).includes('README');
      if (continues(req))
        return readme && !req.messages.some((m) => m.tool_calls?.some((c) => c.function.name === 'report'))
          ? toolCalls(['report', { status: 'working', summary: 'Read it.' }])
          : text('Done for now.');
      const to = cardsIn(req)[0] ?? '';
      // The README request reads a file first, so its checkout (and repository) exists.
      return readme
        ? toolCalls(['reply', { to, text: 'On it: the README.' }], ['read_file', { path: 'README.md' }])
        : toolCalls(
            ['reply', { to, text: 'On it: the lab notes.' }],
            ['report', { status: 'working', summary: 'Started.' }],
          );
    });
    const roomCard = await send(
      w.app.ctx,
      localMessage('Please read the README of acme/web', { chat: 'room', user: 'ada' }),
    );
    const labCard = await send(
      w.app.ctx,
      localMessage('Please tidy the lab notes', { chat: 'lab', user: 'bob' }),
    );
    const room = await ticketOpenedBy(w.app.ctx, roomCard);
    const lab = await ticketOpenedBy(w.app.ctx, labCard);
    // A message that is no request, in a chat with an open ticket: the main session decides it.
    const aside = await send(w.app.ctx, localMessage('just saying hello', { chat: 'room', request: false }));
    const main = await waitFor(
      () => w.llm.requests.find((r) => roleOf(r) === 'main' && cardsIn(r).includes(aside)),
      'the main session’s request',
    );
    const executor = (ticket: string, n: number) =>
      waitFor(
        () => w.llm.requests.filter((r) => roleOf(r) === 'executor' && ticketOf(r) === ticket)[n - 1],
        `${ticket}’s executor request ${n}`,
        20_000,
      );
    const [roomReq, labReq] = [await executor(room, 2), await executor(lab, 1)];

    expect(environmentOf(main)).toEqual({
      deployment: 'switchyard',
      channels: 'feishu, github, local',
      'github bot login': `@${w.gh.botLogin}`,
      'default repositories': 'room → acme/web',
    });

    const roomTicket = await getTicket(w.app.ctx, room);
    expect(environmentOf(roomReq)).toMatchObject({
      ticket: `${room}: ${roomTicket?.title}`,
      requester: 'ada',
      'original conversation': 'local:room',
      'opening card': roomCard,
      repository: 'acme/web',
    });
    const labTicket = await getTicket(w.app.ctx, lab);
    const labEnv = environmentOf(labReq);
    expect(labEnv).toMatchObject({
      ticket: `${lab}: ${labTicket?.title}`,
      requester: 'bob',
      'original conversation': 'local:lab',
      'opening card': labCard,
    });
    // The lab chat is bound to no repository: its executor is told none, and nothing of the other ticket.
    expect(labEnv.repository).toBeUndefined();
    expect(JSON.stringify(labEnv)).not.toContain(room);
    expect(Object.keys(labEnv)).not.toContain('default repositories');
  });
});
