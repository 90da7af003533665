import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { logSandbox } from '../../src/executor/sandbox/log-sandbox.ts';
import { probeSandbox } from '../../src/executor/sandbox/probe-sandbox.ts';
import { createLogger } from '../../src/logger.ts';
import { executorFlow, startWorld, type World } from '../integration/executor/harness.ts';
import { localMessage, send } from '../integration/routing/helpers.ts';
import { toolCalls } from '../kit/fake-llm.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);

/** A log that keeps its lines, to read what start-up said. */
function capturedLog() {
  const lines: { level: number; msg: string }[] = [];
  const log = createLogger(
    'info',
    {},
    {
      destination: {
        write: (s: string) => {
          lines.push(JSON.parse(s) as { level: number; msg: string });
        },
      },
    },
  );
  return { log, lines };
}

describe('R-H3: no sandbox, no commands', () => {
  let fakeBin: string;
  const savedPath = process.env.PATH;
  beforeAll(() => {
    // A host where bubblewrap cannot make namespaces: its bwrap fails the way a locked-down one does.
    fakeBin = mkdtempSync(join(tmpdir(), 'sy-nobwrap-'));
    writeFileSync(
      join(fakeBin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n',
    );
    chmodSync(join(fakeBin, 'bwrap'), 0o755);
    process.env.PATH = `${fakeBin}:${savedPath}`;
  });
  afterAll(() => {
    process.env.PATH = savedPath;
    rmSync(fakeBin, { recursive: true, force: true });
  });

  describe('where bwrap cannot run', () => {
    let w: World;
    beforeEach(async () => {
      w = await startWorld();
    });
    afterEach(() => w.close());

    it('R-H3: run_command and record_verification refuse, naming the fix; nothing runs unconfined', async () => {
      const flow = executorFlow(w.llm, [
        (_r, card) => ack(card),
        () => toolCalls(['run_command', { command: 'echo RAN-UNCONFINED > ran.txt; echo RAN' }]),
        () => toolCalls(['record_verification', { command: 'npm test' }]),
      ]);
      await send(w.app.ctx, localMessage('Please build the web app'));
      await flow.done();
      for (const r of [flow.results[1], flow.results[2]]) {
        const out = r?.join('\n') ?? '';
        expect(out).toMatch(
          /^Error: refused: commands run only in a sandbox, and bubblewrap cannot run here/,
        );
        expect(out).toContain('No permissions to creating new namespace');
        expect(out).toMatch(/install bubblewrap .* or set SANDBOX=none/);
        expect(out).not.toContain('RAN');
      }
    });

    it('R-H3: start-up says loudly that commands will be refused, and the probe tells the doctor why', async () => {
      const { log, lines } = capturedLog();
      await logSandbox(log, w.app.ctx.config);
      const warn = lines.find((l) => l.level === 40 && l.msg.includes('unavailable'));
      expect(warn?.msg).toMatch(/commands will be refused .*Fix: install bubblewrap/);
      const probe = await probeSandbox(w.app.ctx.config);
      expect(probe).toMatchObject({ ok: false, mode: 'bwrap' });
      expect(probe.fix).toContain('SANDBOX=none');
    });
  });

  describe('with SANDBOX=none', () => {
    let w: World;
    beforeEach(async () => {
      w = await startWorld({ SANDBOX: 'none' });
    });
    afterEach(() => w.close());

    it('R-H3: commands run unconfined (in the host checkout) and start-up warns about it', async () => {
      const flow = executorFlow(w.llm, [
        (_r, card) => ack(card),
        () => toolCalls(['run_command', { command: 'pwd' }]),
      ]);
      await send(w.app.ctx, localMessage('Please build the web app'));
      await flow.done();
      const out = flow.results[1]?.join('\n') ?? '';
      expect(out).toContain('exit 0');
      expect(out).toContain(join(w.root, 'workspaces'));
      const { log, lines } = capturedLog();
      await logSandbox(log, loadConfig({ SANDBOX: 'none' }));
      expect(lines.find((l) => l.level === 40)?.msg).toMatch(/SANDBOX=none: repository code runs unconfined/);
    });
  });
});
