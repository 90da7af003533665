import { describe, expect, it } from 'vitest';
import { languageOfText } from '../../../src/i18n/detect-language.ts';

describe('issue 16: the language of a request', () => {
  it('Chinese commands and requests are Chinese', () => {
    expect(languageOfText('暂停')).toBe('zh-CN');
    expect(languageOfText('@Switchyard 继续。')).toBe('zh-CN');
    expect(languageOfText('请修复 src/router/command.ts 里的 bug')).toBe('zh-CN');
    expect(languageOfText('修复 https://github.com/acme/web/pull/12 的登录')).toBe('zh-CN');
  });

  it('English, and English naming a Chinese name, is English; no letters at all is English', () => {
    expect(languageOfText('/pause')).toBe('en');
    expect(languageOfText('please fix the export button')).toBe('en');
    expect(languageOfText('Please ask 张三 to review the PR')).toBe('en');
    expect(languageOfText('👍 123')).toBe('en');
    expect(languageOfText('')).toBe('en');
  });
});
