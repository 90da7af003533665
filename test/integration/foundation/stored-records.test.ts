import { describe, expect, it } from 'vitest';
import { saveTicketPr, ticketPr, verifications } from '../../../src/executor/workspace/delivery-records.ts';
import { loadWorkspace, saveWorkspace } from '../../../src/executor/workspace/workspace-record.ts';
import { createLogger } from '../../../src/logger.ts';
import { deliveriesOf, recordSent, sentRecord } from '../../../src/outbox/sent-records.ts';
import { openQuestion, readQuestionFacts } from '../../../src/status/status-facts.ts';
import { addReport, lastReport, reportsOf } from '../../../src/tickets/reports.ts';
import { testRedis } from '../../kit/redis.ts';

const { redis, keys } = testRedis();
const ctx = () => ({ redis, keys: keys(), log: createLogger('silent') });

describe('issue 20: stored records are read through their owners’ schemas', () => {
  it('reports, PR, workspace, sent records and the status question read back as written', async () => {
    const c = ctx();
    await addReport(c, 'T1', { status: 'working', summary: 'on it', human_action: null, at: 1 });
    await addReport(c, 'T1', { status: 'blocked', summary: 'stalled', kind: 'stalled', by: 'host', at: 2 });
    expect((await reportsOf(c, 'T1')).map((r) => r.summary)).toEqual(['on it', 'stalled']);
    expect(await lastReport(c, 'T1')).toMatchObject({ status: 'blocked', kind: 'stalled' });
    const pr = { repo: 'acme/app', number: 7, nodeId: 'PR_7', url: 'https://github.com/acme/app/pull/7' };
    await saveTicketPr(c, 'T1', pr);
    expect(await ticketPr(c, 'T1')).toEqual(pr);
    const ws = {
      repo: 'acme/app',
      cloneUrl: 'u',
      dir: '/w/T1',
      home: '/w/.home/T1',
      branch: 'sy/T1',
      base: 'main',
    };
    await saveWorkspace(c, 'T1', ws);
    expect(await loadWorkspace(c, 'T1')).toEqual(ws);
    await recordSent(c, 'reply:k', { at: 3, id: 'm1', op: 'local.reply' }, { id: 'T1', refs: [] });
    expect(await sentRecord(c, 'reply:k')).toEqual({ at: 3, id: 'm1', op: 'local.reply' });
    const q = { question: 'Which?', choices: ['a', 'b'], turnId: 't1', at: 4 };
    await openQuestion(c, 'T1', q);
    expect(await readQuestionFacts(c, 'T1')).toEqual({ question: q });
  });

  it('a PR or workspace of another shape is reported as StoredRecordError, not cast', async () => {
    const c = ctx();
    await redis.set(c.keys.ticketPr('T1'), JSON.stringify({ repo: 'acme/app', number: '7' }));
    await redis.set(c.keys.ticketWorkspace('T1'), '{"dir":');
    await expect(ticketPr(c, 'T1')).rejects.toMatchObject({
      code: 'invalid_record',
      key: c.keys.ticketPr('T1'),
    });
    await expect(loadWorkspace(c, 'T1')).rejects.toMatchObject({
      code: 'invalid_record',
      key: c.keys.ticketWorkspace('T1'),
    });
  });

  it('issue 31: a PR or workspace its owner could not read back is refused when written, nothing stored', async () => {
    const c = ctx();
    const pr = { repo: 'acme/app', number: 7, url: 'https://github.com/acme/app/pull/7' };
    const saved = await saveTicketPr(c, 'T1', pr as Parameters<typeof saveTicketPr>[2]);
    expect(saved).toMatchObject({ ok: false, error: { code: 'record_refused', key: c.keys.ticketPr('T1') } });
    expect(saved.ok ? '' : saved.error.problem).toContain('nodeId');
    expect(await ticketPr(c, 'T1')).toBeUndefined();
    const ws = { repo: 'acme/app', dir: '/w/T1', home: '/w/.home/T1', branch: 'sy/T1', base: 'main' };
    await expect(saveWorkspace(c, 'T1', ws as Parameters<typeof saveWorkspace>[2])).rejects.toMatchObject({
      code: 'record_refused',
    });
    expect(await loadWorkspace(c, 'T1')).toBeUndefined();
  });

  it('an invalid entry of a list or log is logged and left out; the valid ones still count', async () => {
    const c = ctx();
    await addReport(c, 'T1', { status: 'working', summary: 'fine', at: 1 });
    await redis.rpush(c.keys.ticketReports('T1'), JSON.stringify({ status: 'dancing' }));
    await redis.rpush(c.keys.ticketVerifications('T1'), JSON.stringify({ command: 'npm test' }));
    await redis.rpush(c.keys.outboxByTicket('T1'), 'k');
    await redis.set(c.keys.outboxSent('k'), JSON.stringify({ at: 'later' }));
    await redis.hset(c.keys.ticketStatus('T1'), 'question', JSON.stringify({ question: 1 }));
    expect((await reportsOf(c, 'T1')).map((r) => r.summary)).toEqual(['fine']);
    expect(await lastReport(c, 'T1')).toBeUndefined();
    expect(await verifications(c, 'T1')).toEqual([]);
    expect(await deliveriesOf(c, 'T1')).toEqual([{ key: 'k', sent: null }]);
    expect(await readQuestionFacts(c, 'T1')).toEqual({});
  });
});
