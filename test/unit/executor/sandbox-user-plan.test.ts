import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planSandboxUser } from '../../../src/executor/sandbox/sandbox-user.ts';

const closed = mkdtempSync(join(tmpdir(), 'sy-plan-')); // mkdtemp makes it 0700
afterAll(() => rmSync(closed, { recursive: true, force: true }));

describe('issue 45: the sandbox user’s plan', () => {
  it('under a folder that lets no other user through, the plan falls back and leaves no WORKSPACE_DIR made open (0711) behind', () => {
    const workspace = join(closed, 'workspaces');
    const plan = planSandboxUser({ SANDBOX_UID: 2_000_000_000, WORKSPACE_DIR: workspace });
    // As root the closed folder is the reason; a bot that is not root never gets that far.
    const why = process.getuid?.() === 0 ? /lets no other user through/ : /not root/;
    expect('why' in plan && plan.why).toMatch(why);
    expect(existsSync(workspace)).toBe(false);
  });
});
