import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { ciEntryOf, namesOfZ } from '../../../src/executor/workspace/ci-config-paths.ts';

describe('CI_CONFIG_PATHS (issue 31): the paths whose change is a change to CI', () => {
  it('defaults to .github/workflows/, which stays one whatever the list says', () => {
    expect(loadConfig({}).CI_CONFIG_PATHS).toEqual(['.github/workflows/']);
    expect(loadConfig({ CI_CONFIG_PATHS: '.gitlab-ci.yml, .circleci/' }).CI_CONFIG_PATHS).toEqual([
      '.github/workflows/',
      '.gitlab-ci.yml',
      '.circleci/',
    ]);
    expect(loadConfig({ CI_CONFIG_PATHS: '.github/workflows/,Jenkinsfile' }).CI_CONFIG_PATHS).toEqual([
      '.github/workflows/',
      'Jenkinsfile',
    ]);
  });

  it('refuses entries that are not paths from the repository root, naming the variable', () => {
    for (const bad of ['/etc/ci', '../ci.yml', 'ci/*.yml', ':(glob)x', 'a\\b'])
      expect(() => loadConfig({ CI_CONFIG_PATHS: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ CI_CONFIG_PATHS: '../ci.yml' })).toThrow(/CI_CONFIG_PATHS: /);
  });

  it('a folder entry covers what is under it, any other a file or a folder of that name, without regard to case', () => {
    const paths = ['.github/workflows/', '.gitlab-ci.yml', '.circleci'];
    expect(ciEntryOf(paths, '.github/workflows/ci.yml')).toBe('.github/workflows/');
    expect(ciEntryOf(paths, '.GitHub/Workflows/ci.yml')).toBe('.github/workflows/');
    expect(ciEntryOf(paths, '.gitlab-ci.yml')).toBe('.gitlab-ci.yml');
    expect(ciEntryOf(paths, '.circleci/config.yml')).toBe('.circleci');
    expect(ciEntryOf(paths, '.github/workflows.md')).toBeUndefined();
    expect(ciEntryOf(paths, '.circleci-old/config.yml')).toBeUndefined();
    expect(ciEntryOf(paths, 'docs/.gitlab-ci.yml')).toBeUndefined();
  });

  it('reads git’s -z name lists, quotes and newlines between commits included', () => {
    expect(
      namesOfZ('.github/workflows/"q".yml\0\n.github/workflows/a.yml\0.github/workflows/a.yml\0'),
    ).toEqual(['.github/workflows/"q".yml', '.github/workflows/a.yml']);
    expect(namesOfZ('')).toEqual([]);
  });
});
