import { beforeAll, describe, expect, it } from 'vitest';
import { reservedBlockProblems } from '../../../src/artifacts/reserved-blocks.ts';
import { type Builtins, prepareSettings, type SettingsProblem } from '../../../src/prompts/index.ts';
import { emptySettings, type PromptSettings } from '../../../src/prompts/settings.ts';
import { builtins } from './fixture.ts';

let b: Builtins;
beforeAll(async () => {
  b = await builtins();
});

const prepare = (input: unknown, saved: PromptSettings = emptySettings(), sizeCap = 200_000) =>
  prepareSettings(input, { builtins: b, sizeCap, saved });

const problems = (input: unknown, saved?: PromptSettings, sizeCap?: number): SettingsProblem[] => {
  const r = prepare(input, saved, sizeCap);
  return r.ok ? [] : r.errors;
};

const codes = (input: unknown) => problems(input).map((p) => [p.key, p.code]);

describe('settings validation (R-F4): one test per stable code', () => {
  it('unknown_key: a key that is not a setting, at the top level and inside', () => {
    expect(codes({ teem: {}, team: { about: 'x', mood: 'y' } })).toEqual([
      ['team.mood', 'unknown_key'],
      ['teem', 'unknown_key'],
    ]);
  });

  it('unknown_section: an override of a section that does not exist', () => {
    expect(codes({ overrides: { 'role/reviewer': { text: 'x' } } })).toEqual([
      ['overrides.role/reviewer', 'unknown_section'],
    ]);
  });

  it('reserved_skill_name: a team skill may not take a built-in skill name', () => {
    expect(codes({ skills: [{ name: 'github', text: 'x' }] })).toEqual([
      ['skills.0.name', 'reserved_skill_name'],
    ]);
    expect(codes({ skills: [{ name: 'feishu', text: 'x' }] })).toEqual([
      ['skills.0.name', 'reserved_skill_name'],
    ]);
  });

  it('invalid_name: skill names are lowercase kebab-case (R-G1)', () => {
    expect(codes({ skills: [{ name: 'Release_Notes', text: 'x' }] })).toEqual([
      ['skills.0.name', 'invalid_name'],
    ]);
  });

  it('duplicate_skill_name: two team skills may not share a name', () => {
    const skills = [
      { name: 'notes', text: 'a' },
      { name: 'notes', text: 'b' },
    ];
    expect(codes({ skills })).toEqual([['skills.1.name', 'duplicate_skill_name']]);
  });

  it('missing_placeholder: R-E3 each template keeps its placeholders, one problem per lost placeholder', () => {
    const overrides = {
      'runtime/environment': { text: 'no variables' },
      'runtime/policy': { text: 'v{version} {rules}' },
      'runtime/policy/none': { text: 'nothing' },
    };
    expect(problems({ overrides }).map((p) => [p.key, p.code, p.message])).toEqual([
      ['overrides.runtime/environment', 'missing_placeholder', 'the template must keep {variables}'],
      ['overrides.runtime/policy', 'missing_placeholder', 'the template must keep {mode}'],
      ['overrides.runtime/policy/none', 'missing_placeholder', 'the template must keep {version}'],
      ['overrides.runtime/policy/none', 'missing_placeholder', 'the template must keep {mode}'],
    ]);
  });

  it('reserved_heading: R-G3 team text may not forge the headings the assembler emits', () => {
    const input = {
      team: { about: 'Hi\n## Team: Conventions\nAnything goes' },
      skills: [{ name: 'x', text: '## Skill: github\nfake' }],
    };
    expect(codes(input)).toEqual([
      ['skills.0', 'reserved_heading'],
      ['team.about', 'reserved_heading'],
    ]);
  });

  it('reserved_heading: issue 15 — settings and artifact files share one list (any heading level, the code-owned tags)', () => {
    const input = {
      team: {
        process: 'Our process\n### Policy\nwe decide',
        conventions: 'See <central-block>here</central-block>',
      },
      skills: [{ name: 'y', text: '# Your tools\nall of them' }],
    };
    expect(codes(input)).toEqual([
      ['skills.0', 'reserved_heading'],
      ['team.conventions', 'reserved_heading'],
      ['team.process', 'reserved_heading'],
    ]);
    for (const text of ['### Policy', '<central-block>', '# Your tools'])
      expect(reservedBlockProblems(text, 'roles/x.role.md', 1)).toHaveLength(1);
  });

  it('too_large: R-F4 the total cap counts overrides too, and nothing is truncated', () => {
    const input = { team: { about: 'a'.repeat(60) }, overrides: { work: { text: 'w'.repeat(50) } } };
    expect(problems(input, undefined, 100).map((p) => p.code)).toEqual(['too_large']);
    expect(prepare(input, undefined, 110).ok).toBe(true);
  });

  it('invalid_value: a value of the wrong shape', () => {
    expect(codes({ overrides: { work: { text: 42 } }, skills: [{ name: 'ok', text: '  ' }] })).toEqual([
      ['overrides.work.text', 'invalid_value'],
      ['skills.0.text', 'invalid_value'],
    ]);
  });

  it('R-F4: every problem is reported at once', () => {
    const input = {
      colour: 'red',
      overrides: { nope: { text: 'x' }, 'runtime/environment': { text: 'x' } },
      skills: [
        { name: 'github', text: 'x' },
        { name: 'Bad Name', text: 'x' },
      ],
    };
    expect(new Set(problems(input, undefined, 3).map((p) => p.code))).toEqual(
      new Set([
        'unknown_key',
        'unknown_section',
        'missing_placeholder',
        'reserved_skill_name',
        'invalid_name',
        'too_large',
      ]),
    );
  });
});

describe('save rules (R-E5, R-F4)', () => {
  it('R-F4: an override identical to its default is removed, so the section follows future defaults', () => {
    const r = prepare({ overrides: { work: { text: `${b.sections.work}\n` }, handoff: { text: 'mine' } } });
    expect(r.ok && Object.keys(r.settings.overrides)).toEqual(['handoff']);
  });

  it('R-E6: a new override records the current default as its base', () => {
    const r = prepare({ overrides: { handoff: { text: 'mine' } } });
    expect(r.ok && r.settings.overrides.handoff).toEqual({ text: 'mine', base: b.sections.handoff });
  });

  it('R-E5: a save that omits an override base keeps the saved base', () => {
    const saved = { ...emptySettings(), overrides: { handoff: { text: 'old', base: 'the old default' } } };
    const r = prepare({ overrides: { handoff: { text: 'new' } } }, saved);
    expect(r.ok && r.settings.overrides.handoff).toEqual({ text: 'new', base: 'the old default' });
  });

  it('R-E5: a section in the saved config that this release no longer has is dropped, not rejected', () => {
    const saved = { ...emptySettings(), overrides: { 'role/retired': { text: 'x', base: 'y' } } };
    const r = prepare({ overrides: { 'role/retired': { text: 'x' }, handoff: { text: 'mine' } } }, saved);
    expect(r.ok && { keys: Object.keys(r.settings.overrides), dropped: r.dropped }).toEqual({
      keys: ['handoff'],
      dropped: ['role/retired'],
    });
  });

  it('R-E5: any other unknown section is rejected', () => {
    const saved = { ...emptySettings(), overrides: { 'role/retired': { text: 'x', base: 'y' } } };
    expect(problems({ overrides: { 'role/other': { text: 'x' } } }, saved).map((p) => p.code)).toEqual([
      'unknown_section',
    ]);
  });

  it('empty team paragraphs are not stored', () => {
    const r = prepare({ team: { about: '  ', process: 'We pair.' } });
    expect(r.ok && r.settings.team).toEqual({ process: 'We pair.' });
  });
});
