import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layTests } from '../../../src/eval/lay-tests.ts';

const root = mkdtempSync(join(tmpdir(), 'eval-lay-tests-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Issue 47: a task's hidden tests replace whatever the pushed tree holds at their paths. */
describe('laying the hidden tests over a checkout', () => {
  it('replaces an edited test, recreates a deleted one, and never writes through a link the tree made', () => {
    const tests = join(root, 'tests');
    mkdirSync(join(tests, 'test'), { recursive: true });
    writeFileSync(join(tests, 'test', 'a.test.js'), 'hidden a\n');
    writeFileSync(join(tests, 'b_test.go'), 'hidden b\n');
    mkdirSync(join(tests, 'deep', 'er'), { recursive: true });
    writeFileSync(join(tests, 'deep', 'er', 'c.py'), 'hidden c\n');
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const checkout = join(root, 'checkout');
    mkdirSync(join(checkout, 'test'), { recursive: true });
    writeFileSync(join(checkout, 'test', 'a.test.js'), 'assert.ok(true)\n');
    // The pushed tree made `deep` a link out of the checkout, and b_test.go a link to a file outside.
    symlinkSync(outside, join(checkout, 'deep'));
    writeFileSync(join(outside, 'target'), 'keep\n');
    symlinkSync(join(outside, 'target'), join(checkout, 'b_test.go'));
    expect(layTests(tests, checkout)).toEqual(['b_test.go', 'deep/er/c.py', 'test/a.test.js']);
    expect(readFileSync(join(checkout, 'test', 'a.test.js'), 'utf8')).toBe('hidden a\n');
    expect(readFileSync(join(checkout, 'b_test.go'), 'utf8')).toBe('hidden b\n');
    expect(lstatSync(join(checkout, 'b_test.go')).isSymbolicLink()).toBe(false);
    expect(lstatSync(join(checkout, 'deep')).isDirectory()).toBe(true);
    expect(readFileSync(join(checkout, 'deep', 'er', 'c.py'), 'utf8')).toBe('hidden c\n');
    expect(readFileSync(join(outside, 'target'), 'utf8')).toBe('keep\n');
    expect(() => lstatSync(join(outside, 'er'))).toThrow();
  });
});
