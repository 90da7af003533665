import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnArtifacts } from '../../../src/artifacts/turn-snapshot.ts';
import { executorTools } from '../../../src/executor/executor-tools.ts';
import type { TurnScope } from '../../../src/executor/turn-scope.ts';
import { buildSystemPrompt } from '../../../src/prompts/index.ts';
import { TOOL_NAMES } from '../../../src/prompts/offered-tools.ts';
import { mainTools } from '../../../src/router/main/main-turn.ts';
import { createRuntime, type Runtime } from '../../../src/runtime.ts';
import { toFunctionTools } from '../../../src/session/tool-schema.ts';
import type { Ticket } from '../../../src/tickets/ticket.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { mismatches, type WrittenKey, writtenCalls } from './call-shapes.ts';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? markdownFiles(p) : p.endsWith('.md') ? [p] : [];
  });
}
const BUILT_IN = ['prompts', 'skills', 'roles', 'crews', 'workflows'].flatMap((d) => markdownFiles(d));

const ticket: Ticket = {
  id: 'T1',
  title: 'arguments',
  state: 'working',
  openedBy: 'local-x',
  origin: { source: 'local', chatId: 'room', messageId: 'm1' },
  conversation: 'room',
  requester: { id: 'ada' },
  createdAt: 0,
  updatedAt: 0,
};

/** Every tool either session offers, as the model is sent it (name → JSON Schema of its arguments). */
function schemasOf(rt: Runtime): Map<string, Record<string, unknown>> {
  const artifacts: TurnArtifacts = {
    revision: 0,
    crew: { name: 'c', tier: 'bundled', from: 'default' },
    role: { name: 'worker', tier: 'bundled', profile: 'worker', body: '' },
    topology: 'mesh',
    requested: [],
    project: [],
    problems: [],
  };
  const scope: TurnScope = { rt, ticket, turnId: 't', batch: new Map(), artifacts };
  const batch = { turnId: 't', cards: new Map(), reasons: new Map(), decided: new Map(), notices: new Map() };
  const tools = toFunctionTools([...executorTools(scope), ...mainTools(rt, batch)]);
  return new Map(
    tools.map((t) => [t.function.name, (t.function.parameters ?? {}) as Record<string, unknown>]),
  );
}

/** What a written call gets wrong: an unknown tool, text that does not parse, or its keys. */
function callProblems(schemas: Map<string, Record<string, unknown>>, where: string, text: string): string[] {
  return writtenCalls(text).flatMap(({ name, keys, raw }) => {
    const schema = schemas.get(name);
    if (!schema) return [`${where}: ${raw}: no tool is called ${name}`];
    if (typeof keys === 'string') return [`${where}: ${raw}: ${keys}`];
    return mismatches(keys, schema, `${where}: ${name}`);
  });
}

/** The README's tool tables (`| tool | takes | … |`): each row's tool and the keys its "takes" cell names. */
function readmeRows(readme: string): { name: string; keys: WrittenKey[] }[] {
  const rows: { name: string; keys: WrittenKey[] }[] = [];
  let inTable = false;
  for (const line of readme.split('\n')) {
    if (/^\| tool \| takes \|/.test(line)) {
      inTable = true;
      continue;
    }
    if (!line.startsWith('|')) inTable = false;
    if (!inTable || line.startsWith('| ---')) continue;
    const [, tool, takes] = line.split('|').map((c) => c.trim());
    const name = /^`([a-z_]+)`$/.exec(tool ?? '')?.[1];
    if (!name) continue;
    const keys = [...(takes ?? '').matchAll(/`([a-z]+(?:_[a-z]+)*)(\?)?`/g)].map((m) => ({
      name: m[1] as string,
      optional: m[2] === '?',
      valued: false,
    }));
    rows.push({ name, keys });
  }
  return rows;
}

describe('issue 28: the prompts and the README write each tool call with the arguments its schema takes', () => {
  let app: TestApp;
  let rt: Runtime;
  beforeEach(async () => {
    app = await startTestApp({}, { workers: false });
    rt = await createRuntime(app.ctx);
  });
  afterEach(async () => {
    await app.close();
  });

  it('every backticked call `name({ a, b? })` in prompts/, skills/ and the bundled artifacts names real keys, every required one, `?` exactly on the optional ones', () => {
    const schemas = schemasOf(rt);
    const problems = BUILT_IN.flatMap((file) => callProblems(schemas, file, readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
    // The check reads what it should: the prompts write calls, and reply's among them.
    const calls = BUILT_IN.flatMap((file) => writtenCalls(readFileSync(file, 'utf8')));
    expect(calls.map((c) => c.name)).toEqual(
      expect.arrayContaining(['reply', 'report', 'orchestrator_route']),
    );
  });

  it("every row of the docs' tool tables (README.md, docs/) names the tool's keys, every required one, `?` exactly on the optional ones", () => {
    const schemas = schemasOf(rt);
    const docs = [
      'README.md',
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const rows = docs.flatMap((file) =>
      readmeRows(readFileSync(file, 'utf8')).map((row) => ({ ...row, file })),
    );
    expect(rows.length).toBeGreaterThan(0);
    const problems = rows.flatMap(({ name, keys, file }) => {
      const schema = schemas.get(name);
      return schema ? mismatches(keys, schema, `${file}: ${name}`) : [`${file}: no tool is called ${name}`];
    });
    expect(problems).toEqual([]);
  });

  it('the check finds what a wrong call gets wrong (a key the tool lacks, a required key left out, a wrong `?`)', () => {
    const schemas = schemasOf(rt);
    expect(
      callProblems(
        schemas,
        'x.md',
        '`reply({ to, body })` `read_file({ path?, offset })` `orchestrator_route({ decisions: [{ card, ticket? }] })` `nope()`',
      ),
    ).toEqual([
      'x.md: reply: `body` is not an argument (it takes to, text, purpose)',
      'x.md: reply: required `text` is missing',
      'x.md: read_file: `path?` is required, not optional',
      'x.md: read_file: `offset` is optional: write `offset?`',
      'x.md: orchestrator_route.decisions: required `action` is missing',
      'x.md: `nope()`: no tool is called nope',
    ]);
  });

  it("the main session's prompt names, among every tool's name, only its own: `sleep`, `shell` and `task_wait` are its tools, said to refuse", async () => {
    const batch = {
      turnId: 't',
      cards: new Map(),
      reasons: new Map(),
      decided: new Map(),
      notices: new Map(),
    };
    const tools = mainTools(rt, batch).map((t) => t.name);
    const p = await buildSystemPrompt(rt.prompts, rt.prompts.reader, {
      role: 'main',
      sessionId: 'main-arguments',
      environment: {},
      tools,
    });
    // Single words too (`sleep`, `shell`), which the snake_case check of prompt-tools.test.ts skips.
    const named = [...p.text.matchAll(/`([a-z_]+)`/g)]
      .map((m) => m[1] as string)
      .filter((w) => TOOL_NAMES.has(w));
    expect(named.filter((n) => !tools.includes(n))).toEqual([]);
    expect(named).toEqual(expect.arrayContaining(['sleep', 'shell', 'task_wait']));
    expect(p.text).toContain('`sleep`, `shell` and `task_wait` only refuse');
  });

  it('the work instructions leave the branch to the host: no "create a branch"', () => {
    for (const file of BUILT_IN)
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/create (a|the|your) branch/i);
  });
});
