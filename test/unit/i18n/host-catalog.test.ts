import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HOST_TEXT_KEYS } from '../../../src/i18n/host-keys.ts';
import { catalogPath, hostText } from '../../../src/i18n/host-text.ts';
import { LANGS } from '../../../src/i18n/lang.ts';
import { fillPlaceholders, parseCatalog, placeholdersOf } from '../../../src/i18n/parse-catalog.ts';

const parsed = Object.fromEntries(
  LANGS.map((lang) => [lang, parseCatalog(readFileSync(catalogPath(lang), 'utf8'))]),
);

describe('issue 16: host texts live in one Markdown catalog per language', () => {
  for (const lang of LANGS) {
    it(`prompts/host/${lang}.md parses cleanly and has exactly the keys the code uses`, () => {
      const { texts, problems } = parsed[lang] ?? parseCatalog('');
      expect(problems).toEqual([]);
      expect([...texts.keys()].sort()).toEqual([...HOST_TEXT_KEYS].sort());
    });
  }

  it('every text has the same placeholders in every language', () => {
    const mismatched: string[] = [];
    for (const key of HOST_TEXT_KEYS) {
      const en = placeholdersOf(parsed.en?.texts.get(key) ?? '');
      for (const lang of LANGS) {
        const other = placeholdersOf(parsed[lang]?.texts.get(key) ?? '');
        if (JSON.stringify(other) !== JSON.stringify(en))
          mismatched.push(`${lang} ${key}: ${other} vs ${en}`);
      }
    }
    expect(mismatched).toEqual([]);
  });

  it('the Chinese catalog is Chinese, not a copy of the English one', () => {
    const same = HOST_TEXT_KEYS.filter((k) => parsed.en?.texts.get(k) === parsed['zh-CN']?.texts.get(k));
    expect(same).toEqual([]);
  });

  it('R-D2: the pause confirmation in each language', () => {
    expect(hostText('en', 'command.paused', { tickets: 'T3' })).toBe(
      'Paused T3; nothing more happens until someone says /resume.',
    );
    expect(hostText('zh-CN', 'command.paused', { tickets: 'T3' })).toBe(
      '已暂停 T3；在有人说“继续”（/resume）之前，不会再有任何动作。',
    );
  });

  it('the parser names duplicate, empty and malformed keys; the preamble is not a text', () => {
    const { texts, problems } = parseCatalog(
      '# Title\npreamble\n## a.b\none\n## a.b\ntwo\n## Bad Key\nx\n## c\n\n',
    );
    expect([...texts.keys()]).toEqual(['a.b', 'Bad Key']);
    expect(problems).toEqual([
      'a.b: defined twice',
      'Bad Key: not a key (lowercase words joined by . and -)',
      'c: empty text',
    ]);
  });

  it('a placeholder without a value throws instead of sending braces', () => {
    expect(fillPlaceholders('{a} and {b}', { a: 1, b: 'x' })).toBe('1 and x');
    expect(() => fillPlaceholders('{a} and {b}', { a: 1 })).toThrow(/\{b\}/);
  });
});
