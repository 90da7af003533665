import { lookup } from 'node:dns/promises';
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { takeScreenshot } from '../../../src/executor/screenshot/screenshot-run.ts';
import type { Workspace } from '../../../src/executor/workspace/workspace-record.ts';

/**
 * A serve command that turns the run's summary into a FIFO, with a reader outside the driver's
 * process group (the driver kills that group) so the driver's write of its summary completes.
 */
const PLANT_FIFO = `mkfifo "$SHOT_OUT/summary.json"; setsid sh -c 'cat "$SHOT_OUT/summary.json" >/dev/null' & exit 0`;

/** Opens any FIFO a screenshot run left in the temporary folder, so a blocked `open` returns. */
function releaseShotFifos(): void {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('switchyard-shot-'))) {
    const p = join(tmpdir(), name, 'summary.json');
    if (!lstatSync(p, { throwIfNoEntry: false })?.isFIFO()) continue;
    const fd = openSync(p, constants.O_RDWR | constants.O_NONBLOCK);
    setTimeout(() => closeSync(fd), 200);
  }
}

describe('issue 31: the screenshot reader opens only regular files of its output folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'sy-shot-reader-'));
  const ws: Workspace = {
    repo: 'acme/web',
    cloneUrl: 'file:///nowhere.git',
    dir: join(root, 'checkout'),
    home: join(root, 'home'),
    branch: 'sy/T1-x',
    base: 'main',
  };
  mkdirSync(ws.dir);
  mkdirSync(ws.home);
  afterAll(() => {
    releaseShotFifos();
    rmSync(root, { recursive: true, force: true });
  });

  it('issue 31: a summary.json the run made a FIFO is refused at once, and the threadpool stays free', async () => {
    // The browser is never started: nothing answers at the URL, so any existing program will do.
    const config = loadConfig({ CHROMIUM_PATH: '/usr/bin/true', WORKSPACE_DIR: root });
    const started = Date.now();
    const shot = await takeScreenshot(config, ws, {
      serve: PLANT_FIFO,
      url: 'http://127.0.0.1:8181/',
      at: 'head',
      baseSha: '',
      width: 400,
      height: 300,
      fullPage: false,
      waitSeconds: 1,
      writable: true,
      login: 'switchyard',
    });
    expect(shot).toEqual({
      ok: false,
      why: "the run's summary.json is a named pipe (FIFO), not a regular file",
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    const lookups = Promise.all(Array.from({ length: 8 }, () => lookup('localhost'))).then(() => true);
    const late = new Promise<false>((r) => setTimeout(() => r(false), 3000));
    expect(await Promise.race([lookups, late])).toBe(true);
  });
});
