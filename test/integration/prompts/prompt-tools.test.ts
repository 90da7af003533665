import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Profile, Topology } from '../../../src/artifacts/artifact.ts';
import type { TurnArtifacts } from '../../../src/artifacts/turn-snapshot.ts';
import { executorTools } from '../../../src/executor/executor-tools.ts';
import type { TurnScope } from '../../../src/executor/turn-scope.ts';
import { buildSystemPrompt } from '../../../src/prompts/index.ts';
import { TOOL_NAMES, toolsNamed } from '../../../src/prompts/offered-tools.ts';
import { mainTools } from '../../../src/router/main/main-turn.ts';
import { createRuntime, type Runtime } from '../../../src/runtime.ts';
import type { Ticket } from '../../../src/tickets/ticket.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';

/** Backticked words in built-in text that name things other than tools (event kinds, fields). */
const NOT_TOOLS = new Set([
  'human_action',
  'issue_comment',
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
  'check_suite',
  'check_run',
  'default_changed',
]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? markdownFiles(p) : p.endsWith('.md') ? [p] : [];
  });
}
const BUILT_IN = ['prompts', 'skills', 'roles', 'crews', 'workflows'].flatMap((d) => markdownFiles(d));

const ticket: Ticket = {
  id: 'T1',
  title: 'consistency',
  state: 'working',
  openedBy: 'local-x',
  origin: { source: 'local', chatId: 'room', messageId: 'm1' },
  conversation: 'room',
  requester: { id: 'ada' },
  createdAt: 0,
  updatedAt: 0,
};

function scopeFor(rt: Runtime, profile: Profile, topology: Topology): TurnScope {
  const artifacts: TurnArtifacts = {
    revision: 0,
    crew: { name: 'c', tier: 'bundled', from: 'default' },
    role: { name: profile, tier: 'bundled', profile, body: '' },
    topology,
    requested: [],
    project: [],
    problems: [],
  };
  return { rt, ticket, turnId: 't', batch: new Map(), artifacts };
}

describe('issue 15: the prompts name only tools the code offers', () => {
  let app: TestApp;
  let rt: Runtime;
  beforeEach(async () => {
    app = await startTestApp({}, { workers: false });
    rt = await createRuntime(app.ctx);
  });
  afterEach(async () => {
    await app.close();
  });
  const emptyBatch = () => ({
    turnId: 't',
    cards: new Map(),
    reasons: new Map(),
    decided: new Map(),
    notices: new Map(),
  });

  it('the list of tool names is exactly what the code defines, for both sessions', () => {
    const offered = new Set([
      ...executorTools(scopeFor(rt, 'worker', 'mesh')).map((t) => t.name),
      ...mainTools(rt, emptyBatch()).map((t) => t.name),
    ]);
    expect([...offered].sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('every tool-like name in prompts/, skills/ and the bundled artifacts is a tool the code offers', () => {
    const unknown: string[] = [];
    for (const file of BUILT_IN) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/`([a-z]+(?:_[a-z]+)+)(?:\([^`]*\))?`|`([a-z]+)\(/g)) {
        const name = (m[1] ?? m[2]) as string;
        if (!TOOL_NAMES.has(name) && !NOT_TOOLS.has(name)) unknown.push(`${file}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  const combos: [Profile, Topology][] = [
    ['worker', 'hub'],
    ['worker', 'silent'],
    ['worker', 'mesh'],
    ['reviewer', 'hub'],
    ['explorer', 'silent'],
  ];
  for (const [profile, topology] of combos) {
    it(`an executor's prompt (${profile}, ${topology}) names only the tools that turn is offered, and still names report`, async () => {
      const tools = executorTools(scopeFor(rt, profile, topology)).map((t) => t.name);
      const p = await buildSystemPrompt(rt.prompts, rt.prompts.reader, {
        role: 'executor',
        sessionId: `exec-${profile}-${topology}`,
        environment: { ticket: 'T1' },
        tools,
      });
      const named = new Set(toolsNamed(p.text));
      expect([...named].filter((n) => !tools.includes(n))).toEqual([]);
      // Silent crews still ask and say they are done (issue 15).
      expect(tools).toContain('report');
      expect(named.has('report')).toBe(true);
      expect(p.text).toContain('Acknowledge once, concretely');
    });
  }

  it("the main session's prompt names only its own tools", async () => {
    const tools = mainTools(rt, emptyBatch()).map((t) => t.name);
    const p = await buildSystemPrompt(rt.prompts, rt.prompts.reader, {
      role: 'main',
      sessionId: 'main-consistency',
      environment: {},
      tools,
    });
    expect(toolsNamed(p.text).filter((n) => !tools.includes(n))).toEqual([]);
    expect(toolsNamed(p.text)).toEqual(
      expect.arrayContaining(['orchestrator_route', 'orchestrator_eval', 'read_card']),
    );
  });
});
