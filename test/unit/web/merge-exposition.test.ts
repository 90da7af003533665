import { describe, expect, it } from 'vitest';
import { mergeExpositions } from '../../../src/web/merge-exposition.ts';

describe('issue 17: BullMQ expositions of many queues as one', () => {
  it('issue 17: each family is declared once, its samples from every queue under it', () => {
    const q = (name: string, n: number) =>
      [
        '# HELP bullmq_job_count Number of jobs in the queue by state',
        '# TYPE bullmq_job_count gauge',
        `bullmq_job_count{queue="${name}", state="waiting"} ${n}`,
        '# HELP bullmq_job_failed_total Total number of failed jobs',
        '# TYPE bullmq_job_failed_total counter',
        `bullmq_job_failed_total{queue="${name}"} 0`,
      ].join('\n');
    expect(mergeExpositions([q('a', 1), q('b', 2)]).split('\n')).toEqual([
      '# HELP bullmq_job_count Number of jobs in the queue by state',
      '# TYPE bullmq_job_count gauge',
      'bullmq_job_count{queue="a", state="waiting"} 1',
      'bullmq_job_count{queue="b", state="waiting"} 2',
      '# HELP bullmq_job_failed_total Total number of failed jobs',
      '# TYPE bullmq_job_failed_total counter',
      'bullmq_job_failed_total{queue="a"} 0',
      'bullmq_job_failed_total{queue="b"} 0',
      '',
    ]);
  });

  it('issue 17: nothing in, nothing out', () => {
    expect(mergeExpositions([])).toBe('');
  });
});
