import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { metricsText, startTestApp, type TestApp } from '../../kit/app.ts';

const DEPLOY = join(import.meta.dirname, '..', '..', '..', 'deploy');

/** PromQL words that are not metric names: operators, modifiers, and `by`/`without` (their labels go with them). */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
]);

/**
 * The metric names a PromQL expression reads: with strings, label matchers, ranges and grouping
 * clauses taken out, every identifier that is no function call, keyword or number.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const words = [...bare.matchAll(/(?<![\w:.])[A-Za-z_:][\w:]*/g)];
  const calls = (m: RegExpExecArray | RegExpMatchArray) =>
    bare
      .slice((m.index ?? 0) + m[0].length)
      .trimStart()
      .startsWith('(');
  return words.filter((m) => !calls(m) && !KEYWORDS.has(m[0])).map((m) => m[0]);
}

function alertExprs(): string[] {
  const doc = parse(readFileSync(join(DEPLOY, 'prometheus', 'alerts.yml'), 'utf8')) as {
    groups: { rules: { alert: string; expr: string }[] }[];
  };
  return doc.groups.flatMap((g) => g.rules.map((r) => r.expr));
}

function dashboardExprs(): string[] {
  const dash = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'switchyard.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
  };
  return dash.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

/** Every series name the exposition can have: each family, and a histogram's `_bucket`, `_sum`, `_count`. */
function exported(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^# TYPE (\S+) (\S+)/.exec(line);
    if (!m?.[1]) continue;
    names.add(m[1]);
    if (m[2] === 'histogram' || m[2] === 'summary')
      for (const s of ['_bucket', '_sum', '_count']) names.add(`${m[1]}${s}`);
  }
  return names;
}

describe('the Grafana dashboard and alert rules read only metrics the bot exports (issue 33 item 8)', () => {
  let app: TestApp;
  let names: Set<string>;
  beforeAll(async () => {
    app = await startTestApp({}, { workers: false });
    names = exported(await metricsText(app.url));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('metricNames finds the names in PromQL and nothing else', () => {
    expect(
      metricNames(
        'sum by (le, session) (rate(a_bucket{outcome="ok", x=~"a|b"}[5m])) / ignoring(x) sum(b_total offset 1h) > 0.2',
      ),
    ).toEqual(['a_bucket', 'b_total']);
  });

  for (const [file, exprs] of [
    ['deploy/prometheus/alerts.yml', alertExprs],
    ['deploy/grafana/switchyard.json', dashboardExprs],
  ] as const) {
    it(`${file}: every metric it names is in a started app's /metrics`, () => {
      const used = [...new Set(exprs().flatMap(metricNames))].sort();
      expect(used.length).toBeGreaterThan(5);
      expect(used.filter((n) => !names.has(n))).toEqual([]);
      // What the issue asks to watch: failing deliveries, queue depth, model errors, cost per day, Redis headroom.
      for (const want of [
        'switchyard_outbox_deliveries_total',
        'bullmq_job_count',
        'switchyard_llm_requests_total',
        'switchyard_llm_cost_usd_total',
        'switchyard_redis_memory_used_ratio',
      ])
        expect(used).toContain(want);
    });
  }

  it('every alert has a severity and a summary', () => {
    const doc = parse(readFileSync(join(DEPLOY, 'prometheus', 'alerts.yml'), 'utf8')) as {
      groups: {
        rules: { alert: string; labels?: { severity?: string }; annotations?: { summary?: string } }[];
      }[];
    };
    for (const r of doc.groups.flatMap((g) => g.rules)) {
      expect(r.labels?.severity, r.alert).toMatch(/^(info|warning|critical)$/);
      expect(r.annotations?.summary, r.alert).toBeTruthy();
    }
  });
});
