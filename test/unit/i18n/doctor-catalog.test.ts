import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { doctorLang } from '../../../src/doctor/doctor-lang.ts';
import { DOCTOR_TEXT_KEYS, sayIn } from '../../../src/doctor/doctor-text.ts';
import { ok, problem } from '../../../src/doctor/finding.ts';
import { formatReport, summaryLine } from '../../../src/doctor/format-findings.ts';
import { catalogFile } from '../../../src/i18n/catalog-file.ts';
import { LANGS } from '../../../src/i18n/lang.ts';
import { parseCatalog, placeholdersOf } from '../../../src/i18n/parse-catalog.ts';

const parsed = Object.fromEntries(
  LANGS.map((lang) => [lang, parseCatalog(readFileSync(catalogFile('doctor', lang), 'utf8'))]),
);

describe('issue 16: the doctor speaks from one Markdown catalog per language', () => {
  for (const lang of LANGS) {
    it(`prompts/doctor/${lang}.md parses cleanly and has exactly the keys the code uses`, () => {
      const { texts, problems } = parsed[lang] ?? parseCatalog('');
      expect(problems).toEqual([]);
      expect([...texts.keys()].sort()).toEqual([...DOCTOR_TEXT_KEYS].sort());
    });
  }

  it('every text has the same placeholders in every language, and the Chinese one is not a copy', () => {
    const mismatched: string[] = [];
    for (const key of DOCTOR_TEXT_KEYS) {
      const en = placeholdersOf(parsed.en?.texts.get(key) ?? '');
      for (const lang of LANGS) {
        const other = placeholdersOf(parsed[lang]?.texts.get(key) ?? '');
        if (JSON.stringify(other) !== JSON.stringify(en))
          mismatched.push(`${lang} ${key}: ${other} vs ${en}`);
      }
    }
    expect(mismatched).toEqual([]);
    const same = DOCTOR_TEXT_KEYS.filter((k) => parsed.en?.texts.get(k) === parsed['zh-CN']?.texts.get(k));
    expect(same).toEqual([]);
  });

  it('the report and the start-up line in each language', () => {
    const found = (lang: 'en' | 'zh-CN') => {
      const say = sayIn(lang);
      return [
        ok('workspace', say('workspace.ok', { dir: '/w' })),
        problem('redis', say('redis.too-old', { version: '5.0.1' }), say('redis.too-old.fix')),
      ];
    };
    expect(formatReport(found('en'), 'en')).toBe(
      [
        'ok       workspace: /w writable',
        'PROBLEM  redis: version 5.0.1 is older than 6.2',
        '         fix: upgrade Redis to 6.2 or newer (BullMQ and our scripts need it)',
        '',
        '1 problem(s): fix them and run npm run doctor again',
        '',
      ].join('\n'),
    );
    expect(formatReport(found('zh-CN'), 'zh-CN')).toBe(
      [
        '正常    workspace：/w 可写',
        '问题    redis：版本 5.0.1 低于 6.2',
        '        修复：把 Redis 升级到 6.2 或更高版本（BullMQ 和我们的脚本需要）',
        '',
        '共 1 个问题：修复后请再次运行 npm run doctor',
        '',
      ].join('\n'),
    );
    expect(summaryLine(found('zh-CN'), 'zh-CN')).toBe(
      'doctor（体检）：1 个问题：redis：版本 5.0.1 低于 6.2（修复：把 Redis 升级到 6.2 或更高版本（BullMQ 和我们的脚本需要）） | 正常：workspace | 未启用：无',
    );
  });

  it('the language: --lang, else DOCTOR_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG), else English', () => {
    expect(doctorLang([], {})).toEqual({ lang: 'en' });
    expect(doctorLang([], { LANG: 'zh_CN.UTF-8' })).toEqual({ lang: 'zh-CN' });
    expect(doctorLang([], { LANG: 'zh_CN.UTF-8', LC_ALL: 'C.UTF-8' })).toEqual({ lang: 'en' });
    expect(doctorLang([], { LANG: 'en_US.UTF-8', LC_MESSAGES: 'zh_TW.UTF-8' })).toEqual({ lang: 'zh-CN' });
    expect(doctorLang([], { LANG: 'zh_CN.UTF-8', DOCTOR_LANG: 'en' })).toEqual({ lang: 'en' });
    expect(doctorLang(['--lang', 'zh'], { DOCTOR_LANG: 'en' })).toEqual({ lang: 'zh-CN' });
    expect(doctorLang(['--lang=zh-CN'], {})).toEqual({ lang: 'zh-CN' });
    expect(doctorLang(['--lang', 'fr'], {})).toEqual({ unknown: 'fr' });
    expect(doctorLang([], { DOCTOR_LANG: 'de' })).toEqual({ unknown: 'de' });
  });
});
