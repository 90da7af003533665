import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEISHU_SCOPES } from '../../../src/channels/feishu/app-needs.ts';
import { APP_NEEDS } from '../../../src/channels/github/app-needs.ts';
import { LANGS } from '../../../src/i18n/lang.ts';
import { parseCatalog, placeholdersOf } from '../../../src/i18n/parse-catalog.ts';
import { ASSETS_DIR } from '../../../src/web/panel/static-assets.ts';

const catalog = (lang: string) => parseCatalog(readFileSync(join(ASSETS_DIR, 'i18n', `${lang}.md`), 'utf8'));
const en = catalog('en');
const zh = catalog('zh-CN');

function files(dir: string, ext: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, ext) : p.endsWith(ext) ? [p] : [];
  });
}

/** Keys the pages build from data (`state.${state}`): each family's members, written out. */
const BUILT_KEYS = [
  ...['home', 'prompts', 'versions', 'policy', 'tickets', 'queues', 'charts', 'eval', 'try', 'setup'].map(
    (p) => `page.${p}`,
  ),
  ...['opened', 'done', 'blocked'].map((e) => `charts.tickets.${e}`),
  ...['main', 'executor'].map((k) => `charts.kind.${k}`),
  // Home (issue 33 item 1): its cards, channels and the channels table's columns.
  ...['channels', 'model', 'doctor', 'tickets', 'deliveries', 'queues'].map((c) => `home.${c}`),
  ...['feishu', 'github', 'local'].map((c) => `home.channel.${c}`),
  ...['channel', 'state', 'reach', 'events', 'last'].map((c) => `home.col.${c}`),
  ...['open', 'working', 'waiting', 'done', 'cancelled', 'blocked'].map((s) => `state.${s}`),
  ...['message', 'button', 'api', 'breaker', 'main', 'budget'].map((v) => `pause.via.${v}`),
  // Cost (issue 33 item 5): what the Charts page sums the range's cost by.
  ...['tickets', 'repos', 'chats'].map((f) => `charts.cost.${f}`),
  ...['waiting', 'active', 'delayed', 'paused', 'failed', 'completed'].map((s) => `queues.state.${s}`),
  // Eval (issue 29): the runs' and task runs' columns, a run's states, a PR's.
  ...['when', 'model', 'size', 'resolved', 'honest', 'pass', 'cost', 'per-resolved'].map(
    (c) => `eval.col.${c}`,
  ),
  ...['task', 'pr', 'requests', 'tokens', 'tool-errors', 'time'].map((c) => `eval.col.${c}`),
  ...['unreadable', 'unfinished'].map((s) => `eval.state.${s}`),
  ...['ready', 'draft', 'none'].map((p) => `eval.pr.${p}`),
  ...['session', 'revisions', 'transcript', 'usage', 'last-turn'].map((c) => `ticket.col.${c}`),
  ...['ticket', 'state', 'paused', 'from', 'requester', 'repository', 'updated'].map(
    (c) => `tickets.col.${c}`,
  ),
  ...['seen', 'ok', 'done'].map((r) => `try.reaction.${r}`),
  ...['pause', 'resume', 'paused', 'resumed', 'pause-failed', 'resume-failed'].map((k) => `ticket.${k}`),
  ...['sections', 'team', 'preview'].map((k) => `prompts.tab.${k}`),
  // Issue 49: the ticket page's header, timeline and changes.
  ...['feishu', 'github', 'local'].map((s) => `ticket.source.${s}`),
  ...['feishu', 'github', 'local'].map((s) => `tl.wrote.${s}`),
  ...['ack', 'result', 'answer'].map((p) => `tl.bot.${p}`),
  ...['limit', 'stopped', 'failed'].map((o) => `tl.outcome.${o}`),
  ...['model', 'compaction', 'note'].map((r) => `tl.row.${r}`),
  ...['opened', 'ready', 'closed'].map((e) => `tl.pr-${e}`),
  ...[
    'read_file',
    'edit_file',
    'write_file',
    'run_command',
    'list_files',
    'search_files',
    'record_verification',
    'orchestrator_route',
    'mark_pr_ready',
    'update_plan',
    'screenshot',
  ].map((n) => `tl.tool.${n.replaceAll('_', '-')}`),
  ...['a', 'm', 'd', 't'].map((s) => `changes.status.${s}`),
  ...['about', 'process', 'conventions'].map((k) => `team.help.${k}`),
  ...['revision', 'saved', 'source', 'who', 'changed'].map((c) => `versions.col.${c}`),
  // The Setup page (issue 16): each permission of APP_NEEDS, each chat language, each refusal code.
  ...APP_NEEDS.map((n) => `setup.app.why.${n.permission.replaceAll('_', '-')}`),
  // Issue 33 item 6: each scope of the Feishu app (`whyKey` in feishu-app-section.js), each refusal.
  ...FEISHU_SCOPES.map((s) => `setup.feishu.why.${s.scope.replace(/[^a-z0-9]+/gi, '-')}`),
  ...['feishu-unreachable', 'registration-unknown'].map((c) => `setup.error.${c}`),
  ...['auto', ...LANGS].map((l) => `setup.chats.lang.${l.toLowerCase()}`),
  ...[
    'invalid-repo',
    'invalid-lang',
    'panel-session-required',
    'state-unknown',
    'state-other-session',
    'code-refused',
  ].map((c) => `setup.error.${c}`),
];

describe('issue 16: the panel’s words come from one catalog per language', () => {
  it('both catalogs parse cleanly, with the same keys and the same placeholders', () => {
    expect(en.problems).toEqual([]);
    expect(zh.problems).toEqual([]);
    expect([...zh.texts.keys()].sort()).toEqual([...en.texts.keys()].sort());
    const mismatched = [...en.texts].filter(
      ([k, v]) => JSON.stringify(placeholdersOf(v)) !== JSON.stringify(placeholdersOf(zh.texts.get(k) ?? '')),
    );
    expect(mismatched).toEqual([]);
  });

  it('every key the page and its scripts name is in the catalogs', () => {
    const used = new Set(BUILT_KEYS);
    for (const file of files(join(ASSETS_DIR, 'js'), '.js'))
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt(?:Or)?\('([a-z0-9.-]+)'/g))
        used.add(m[1] as string);
    for (const m of readFileSync(join(ASSETS_DIR, 'index.html'), 'utf8').matchAll(
      /data-i18n(?:-label)?="([^"]+)"/g,
    ))
      used.add(m[1] as string);
    expect([...used].filter((k) => !en.texts.has(k))).toEqual([]);
    expect(used.size).toBeGreaterThan(60);
  });
});
