import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASKS } from '../../../src/eval/cli.ts';
import { evalSandboxConfig } from '../../../src/eval/run-check.ts';
import { loadTask } from '../../../src/eval/task.ts';
import { validateTask } from '../../../src/eval/validate.ts';

const opts = { sandbox: evalSandboxConfig({}), checkTimeoutMs: 60_000 };
const root = mkdtempSync(join(tmpdir(), 'switchyard-validate-rendered-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A copy of a suite task, with `files` written into its folder. */
function copyOf(id: string, files: Record<string, string>): string {
  const dir = join(root, id);
  cpSync(join(DEFAULT_TASKS, id), dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The suite's style.css change that hides what overflows instead of wrapping it. */
const HIDE_OVERFLOW = `diff --git a/style.css b/style.css
--- a/style.css
+++ b/style.css
@@ -1,3 +1,3 @@
-body { margin: 0; font-family: sans-serif; }
+body { margin: 0; font-family: sans-serif; overflow-x: hidden; }
 .top { display: flex; gap: 24px; padding: 12px 16px; white-space: nowrap; width: 720px; background: #f4f4f5; }
 .top a { color: #111827; text-decoration: none; }
`;

/** Issue 47 items 5 and 6: --validate checks other correct fixes and the review's part of the patch. */
describe('eval validation of rendered pages, other fixes and review parts', () => {
  it('item 6: web-nav-wrap is drawn in Chromium in the sandbox: hiding the overflow is no fix (npm run eval -- --validate checks both shipped fixes)', async () => {
    const wrong = await validateTask(
      loadTask(copyOf('web-nav-wrap', { 'solution-alt.patch': HIDE_OVERFLOW })),
      opts,
    );
    expect(wrong.ok).toBe(false);
    expect(wrong.reason).toMatch(/^check fails with solution-alt\.patch, another correct fix: exit 1/);
  }, 240_000);

  it('item 5: a review part the hidden tests do not need is refused', async () => {
    // The "review" adds a comment line; the RangeError it should hold is already in the first part.
    const head = 'diff --git a/src/array.js b/src/array.js\n--- a/src/array.js\n+++ b/src/array.js\n';
    const keep = ' export function last(list) {\n   return list[list.length - 1];\n }\n';
    const chunk = readFileSync(join(DEFAULT_TASKS, 'js-chunk-review', 'solution.patch'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
      .join('\n');
    const dir = copyOf('js-chunk-review', {
      'solution.patch': `${head}@@ -1,3 +1,11 @@\n+// Helpers for lists.\n${keep}${chunk}\n`,
      'review.patch': `${head}@@ -1,3 +1,4 @@\n+// Helpers for lists.\n${keep}`,
    });
    expect(await validateTask(loadTask(dir), opts)).toMatchObject({
      ok: false,
      reason: 'check passes without review.patch: the hidden tests do not grade the review',
    });
  }, 120_000);
});
