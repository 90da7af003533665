import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ticketPr } from '../../../src/executor/workspace/delivery-records.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { ticketOf } from '../../kit/scripted-model.ts';
import { call } from '../api/client.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, SECRETS, startWorld, type World } from './harness.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);

describe('a record is validated when written as when read (issue 31)', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('issue 31: a GitHub PR without node_id is a clear open_pr error, not a stored PR that makes every read of the ticket fail', async () => {
    let ticket = '';
    const flow = executorFlow(w.llm, [
      (req, card) => {
        ticket = ticketOf(req) ?? '';
        return ack(card);
      },
      () =>
        toolCalls(
          ['read_file', { path: 'src/login.ts' }],
          ['write_file', { path: 'src/login.ts', content: 'export const next = () => "/home";\n' }],
        ),
      () => toolCalls(['commit_and_push', { message: 'Default to /home' }]),
      () => {
        // GitHub answers the ticket's open PR (on the branch it just pushed) without `node_id`.
        const branches = w.repo.git('for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n');
        const head = branches.find((b) => b !== 'main') ?? 'x';
        const pull = w.gh.addPull('acme/web', { title: 'Default to /home', head });
        delete (pull as { node_id?: string }).node_id;
        return toolCalls(['open_pr', { title: 'Default to /home', body: 'Fallback.' }]);
      },
    ]);
    await send(w.app.ctx, localMessage('Please default the login redirect to /home'));
    await flow.done();
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[3]).toMatch(
      /^Error: GitHub's answer for acme\/web#\d+ is incomplete, so the PR was not recorded/,
    );
    expect(r[3]).toContain('nodeId');
    expect(await ticketPr(w.app.ctx, ticket)).toBeUndefined();
    const detail = await call(w.app, 'GET', `/tickets/${ticket}`, { token: SECRETS.ADMIN_TOKEN });
    expect(detail.status).toBe(200);
    expect(detail.body.pr ?? null).toBeNull();
  });
});
