import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultBuiltinDirs, getPromptsView, loadBuiltins, savePrompts } from '../../../src/prompts/index.ts';
import { waitFor } from '../../kit/app.ts';
import { text } from '../../kit/fake-llm.ts';
import { useModelApp } from '../../kit/model-app.ts';
import { openAll, roleOf } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { panel, promptWorld } from './world.ts';

const world = promptWorld();
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

const OURS = '### How we use GitHub\n\nEvery PR links its Jira ticket (PAY-123) in the first line.';

describe('issue 15: teams override the built-in GitHub and Feishu skills like any section', () => {
  it('R-E6: a skill/github override keeps its base; an upgraded github.skill.md marks it "Default updated" with a diff', async () => {
    const before = await world();
    const saved = await savePrompts(
      before,
      { baseRevision: 0, team: {}, overrides: { 'skill/github': { text: OURS } }, skills: [] },
      panel,
    );
    expect(saved.ok).toBe(true);
    const dirs = defaultBuiltinDirs();
    const dir = await mkdtemp(join(tmpdir(), 'skills-upgrade-'));
    temps.push(dir);
    await cp(dirs.skills, dir, { recursive: true });
    const file = join(dir, 'github.skill.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('### Reviews', '### Reviews (new)'));
    const after = { ...before, builtins: await loadBuiltins({ prompts: dirs.prompts, skills: dir }) };
    const view = await getPromptsView(after);
    const github = view.sections.find((s) => s.key === 'skill/github');
    expect(github?.override).toEqual({ text: OURS, base: before.builtins.sections['skill/github'] });
    expect(github?.defaultChanged).toBe(true);
    expect(github?.diff).toContain('+### Reviews (new)');
    expect(view.sections.find((s) => s.key === 'skill/feishu')?.defaultChanged).toBe(false);
  });

  describe('in a running product', () => {
    const w = useModelApp();
    it('R-E7: the team’s GitHub skill reaches the executor’s prompt under the skill heading, in place of the default', async () => {
      const saved = await savePrompts(
        { redis: w.app.ctx.redis, keys: w.app.ctx.keys, builtins: await loadBuiltins(), sizeCap: 200_000 },
        { baseRevision: 0, team: {}, overrides: { 'skill/github': { text: OURS } }, skills: [] },
        panel,
      );
      expect(saved.ok).toBe(true);
      w.llm.respond((req) => {
        if (roleOf(req) === 'main') return req.messages.at(-1)?.role === 'tool' ? text('ok') : openAll(req);
        return text('Nothing to do.');
      });
      await send(w.app.ctx, localMessage('Please tidy the PR template', { chat: 'skills' }));
      const req = await waitFor(
        () => w.llm.requests.find((r) => roleOf(r) === 'executor'),
        'an executor request',
      );
      const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
      expect(system).toContain(
        `## Skill: github\n\nHow GitHub issues, pull requests, reviews and checks reach you`,
      );
      expect(system).toContain(OURS);
      expect(system).not.toContain('### What arrives as cards\n\n- `issue_comment`');
    });
  });
});
