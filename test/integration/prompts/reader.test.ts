import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildSystemPrompt,
  createPromptReader,
  savePolicy,
  savePrompts,
  sessionRevisions,
} from '../../../src/prompts/index.ts';
import { redisUrl } from '../../kit/redis.ts';
import { panel, promptWorld } from './world.ts';

const world = promptWorld();

/** A connection that counts the commands it sends: one command is one round trip here. */
function countingRedis() {
  const redis = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const counter = { commands: 0 };
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...args: Parameters<typeof send>) => {
    counter.commands++;
    return send(...args);
  }) as typeof redis.sendCommand;
  return { redis, counter };
}
const counted = countingRedis();
afterAll(() => counted.redis.disconnect());

const executor = (sessionId: string) => ({
  role: 'executor' as const,
  sessionId,
  environment: { ticket: 'T1' },
});

describe('reading settings per model request (R-F3)', () => {
  it('R-F3: a save between two model requests of the same turn changes the second prompt, and both revisions are recorded', async () => {
    const deps = await world();
    await savePrompts(deps, { baseRevision: 0, team: { about: 'First words.' } }, panel);
    const reader = createPromptReader(deps);

    const first = await buildSystemPrompt(deps, reader, executor('sess-1'));
    await savePrompts(deps, { baseRevision: 1, team: { about: 'Second words.' } }, panel);
    const second = await buildSystemPrompt(deps, reader, executor('sess-1'));

    expect(first).toMatchObject({ revision: 1 });
    expect(first.text).toContain('First words.');
    expect(second).toMatchObject({ revision: 2 });
    expect(second.text).toContain('Second words.');
    expect(second.text).not.toContain('First words.');
    expect(await sessionRevisions(deps, 'sess-1')).toEqual([1, 2]);
  });

  it('R-F3: a warm request costs one Redis round trip, and so does the first request after a save', async () => {
    const deps = { ...(await world()), redis: counted.redis };
    const reader = createPromptReader(deps);
    await buildSystemPrompt(deps, reader, executor('sess-3')); // loads the script into Redis
    counted.counter.commands = 0;
    await buildSystemPrompt(deps, reader, executor('sess-3'));
    expect(counted.counter.commands).toBe(1);

    await savePrompts(deps, { baseRevision: 0, team: { about: 'new' } }, panel);
    counted.counter.commands = 0;
    const after = await buildSystemPrompt(deps, reader, executor('sess-3'));
    expect(counted.counter.commands).toBe(1);
    expect(after.text).toContain('new');
  });

  it('R-F3: concurrent requests of one process all see the latest revision', async () => {
    const deps = await world();
    const reader = createPromptReader(deps);
    await reader.read();
    await savePrompts(deps, { baseRevision: 0, team: { about: 'one' } }, panel);
    const reads = await Promise.all(Array.from({ length: 10 }, () => reader.read()));
    expect(reads.map((r) => [r.prompts.revision, r.prompts.config.team.about])).toEqual(
      Array.from({ length: 10 }, () => [1, 'one']),
    );
  });

  it('R-E9: the main session sees a policy change at its next request, and only the policy section differs', async () => {
    const deps = await world();
    const reader = createPromptReader(deps);
    const main = { role: 'main' as const, sessionId: 'main-1', environment: { deployment: 'test' } };
    const before = await buildSystemPrompt(deps, reader, main);
    const rules = [{ id: 'typos', name: 'Typos', instruction: 'Fix typos in docs.', enabled: true }];
    await savePolicy(deps, { baseRevision: 0, mode: 'inferred', rules }, panel);
    const after = await buildSystemPrompt(deps, reader, main);
    const cut = before.text.indexOf('## Policy');
    expect(after.text.slice(0, cut)).toBe(before.text.slice(0, cut));
    expect(after.text.slice(cut)).toContain('Policy version 1. Accept mode: `inferred`.');
    expect(after.text).toContain('- Typos (typos): Fix typos in docs.\n');
    expect(after.policyRevision).toBe(1);
  });
});
