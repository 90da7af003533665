import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultBuiltinDirs,
  loadBuiltins,
  prepareSettings,
  SECTION_KEYS,
  TEAM_HEADINGS,
  TEMPLATE_PLACEHOLDERS,
} from '../../../src/prompts/index.ts';
import { emptySettings } from '../../../src/prompts/settings.ts';

describe('built-in sections and skills (R-E1, R-E2, R-G1)', () => {
  it('R-E1: every section key has a non-empty default in prompts/', async () => {
    const b = await loadBuiltins();
    for (const key of SECTION_KEYS) expect(b.sections[key].length, key).toBeGreaterThan(100);
  });

  it('R-E3: every default template holds its own placeholders', async () => {
    const b = await loadBuiltins();
    for (const [key, placeholders] of Object.entries(TEMPLATE_PLACEHOLDERS)) {
      for (const ph of placeholders) expect(b.sections[key as keyof typeof b.sections], key).toContain(ph);
    }
  });

  it('R-E2: built-in text refers to the team paragraphs by heading and never forges the heading itself', async () => {
    const b = await loadBuiltins();
    const all = SECTION_KEYS.map((k) => b.sections[k]).join('\n');
    for (const heading of Object.values(TEAM_HEADINGS)) {
      expect(all).toContain(`\`${heading}\``);
      expect(all).not.toMatch(new RegExp(`^${heading}`, 'm'));
    }
  });

  it('R-G1: the built-in skills github and feishu parse, with kebab-case names and descriptions', async () => {
    const b = await loadBuiltins();
    expect(b.skills.map((s) => s.name)).toEqual(['feishu', 'github']);
    for (const s of b.skills) expect(s.description?.length).toBeGreaterThan(10);
  });

  it('R-F4: saving every default as an override passes validation and leaves no override behind', async () => {
    const b = await loadBuiltins();
    const overrides = Object.fromEntries(SECTION_KEYS.map((k) => [k, { text: b.sections[k] }]));
    const r = prepareSettings({ overrides }, { builtins: b, sizeCap: 200_000, saved: emptySettings() });
    expect(r.ok && r.settings.overrides).toEqual({});
  });

  it('a missing section file stops loading with the file named', async () => {
    const dirs = defaultBuiltinDirs();
    const dir = await mkdtemp(join(tmpdir(), 'prompts-missing-'));
    try {
      await cp(dirs.prompts, dir, { recursive: true });
      await rm(join(dir, 'admission.md'));
      await expect(loadBuiltins({ prompts: dir, skills: dirs.skills })).rejects.toThrow(/admission\.md/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
