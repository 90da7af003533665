import { execFileSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { closeSync, constants, lstatSync, openSync, readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspacePaths } from '../../../src/executor/workspace/workspace.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);

/** The three file tools, each asked to act on `path`. */
const allThree = (path: string) =>
  toolCalls(
    ['read_file', { path }],
    ['write_file', { path, content: 'x' }],
    ['edit_file', { path, old: 'a', new: 'b' }],
  );

const refusal = (path: string, what: string) =>
  `Error: refused: ${path} is ${what}, not a regular file; file tools open only regular files`;

/** What read_file, write_file and edit_file each answer for `path`. */
const refusedThrice = (path: string, what: string) => Array(3).fill(refusal(path, what));

/** Whether this process may make device files (root with CAP_MKNOD), probed once. */
function mayMakeDevices(dir: string): boolean {
  try {
    execFileSync('mknod', [join(dir, 'probe-device'), 'c', '1', '3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The one checkout of this world's ticket, on the host. */
function checkoutDir(w: World): string {
  const { root } = workspacePaths(w.app.ctx, 'T0');
  const [ticket = ''] = readdirSync(root).filter((n) => !n.startsWith('.'));
  return join(root, ticket);
}

/**
 * Opens every FIFO under `dir` for reading and writing, then closes it: an `open` blocked on one
 * (the bug this file proves gone) returns, so a failing run ends instead of hanging its worker.
 */
function releaseFifos(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = join(e.parentPath, e.name);
    if (!lstatSync(p).isFIFO()) continue;
    const fd = openSync(p, constants.O_RDWR | constants.O_NONBLOCK);
    setTimeout(() => closeSync(fd), 200);
  }
}

/** Twice as many lookups and stats as the threadpool has threads, all answered within 3 s. */
async function threadpoolAnswers(dir: string): Promise<boolean> {
  const work = Array.from({ length: 8 }, (_, i) => (i % 2 ? lookup('localhost') : stat(dir)));
  const late = new Promise<false>((r) => setTimeout(() => r(false), 3000));
  return Promise.race([Promise.all(work).then(() => true), late]);
}

describe('issue 31: file tools open only regular files and never block the worker', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld();
  });
  afterEach(async () => {
    releaseFifos(w.root);
    await w.close();
  });

  it('issue 31: read_file, write_file and edit_file refuse a FIFO, a link to one and a directory at once, and the threadpool stays free', async () => {
    // When the model asked for the FIFO calls and when their answers came back to it.
    const asked: number[] = [];
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls([
          'run_command',
          { command: 'mkfifo pipe && ln -s pipe pipe-link && mkdir folder && ln -s /dev/zero zero' },
        ]),
      () => {
        asked.push(Date.now());
        return allThree('pipe');
      },
      () => {
        asked.push(Date.now());
        return allThree('pipe-link');
      },
      () => allThree('folder'),
      () => allThree('zero'),
      () =>
        toolCalls(
          ['read_file', { path: 'README.md' }],
          ['edit_file', { path: 'README.md', old: '# web', new: '# acme web' }],
        ),
      () => toolCalls(['read_file', { path: 'README.md' }]),
    ]);
    await send(w.app.ctx, localMessage('Please tidy the web app'));
    await flow.done();
    expect(flow.results[1]?.join()).toContain('exit 0');
    expect(flow.results[2]).toEqual(refusedThrice('pipe', 'a named pipe (FIFO)'));
    expect(flow.results[3]).toEqual(refusedThrice('pipe-link', 'a named pipe (FIFO)'));
    expect(flow.results[4]).toEqual(refusedThrice('folder', 'a directory'));
    // A link to a device leads out of the checkout: confinement refuses it before any open.
    expect(flow.results[5]).toEqual(
      Array(3).fill('Error: refused: "zero" leads outside the checkout through a link'),
    );
    expect(flow.results[6]).toEqual([
      '     1\t# web\n(line 1 of 1)',
      'edited README.md:\n     1\t# acme web',
    ]);
    expect(flow.results[7]).toEqual(['     1\t# acme web\n(line 1 of 1)']);
    // Three refusals in well under one read deadline (10 s): nothing waited on the FIFO.
    expect((asked[1] ?? Infinity) - (asked[0] ?? 0)).toBeLessThan(8000);
    const dir = checkoutDir(w);
    expect(lstatSync(join(dir, 'pipe')).isFIFO()).toBe(true);
    expect(await threadpoolAnswers(dir)).toBe(true);
  });

  it('issue 31: a character device planted in the checkout is refused by all three tools, and stays a device', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['list_files', {}]),
      () => {
        if (!mayMakeDevices(w.root)) return toolCalls(['list_files', {}]);
        execFileSync('mknod', [join(checkoutDir(w), 'null-device'), 'c', '1', '3']);
        return allThree('null-device');
      },
    ]);
    await send(w.app.ctx, localMessage('Please look at the web app'));
    await flow.done();
    const dir = checkoutDir(w);
    // The suite runs as root (CI, the setup script's machines): a device file can be made, so the check always runs.
    expect(flow.results[2]).toEqual(refusedThrice('null-device', 'a character device'));
    expect(lstatSync(join(dir, 'null-device')).isCharacterDevice()).toBe(true);
    expect(await threadpoolAnswers(dir)).toBe(true);
  });

  it('issue 31: a file over 16 MiB is never read whole into the worker: read_file streams it (a binary one refused at its first chunk), edit_file refuses it', async () => {
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['run_command', { command: 'truncate -s 17M big.log' }]),
      () =>
        toolCalls(['read_file', { path: 'big.log' }], ['edit_file', { path: 'big.log', old: 'a', new: 'b' }]),
    ]);
    await send(w.app.ctx, localMessage('Please look at the logs of the web app'));
    await flow.done();
    // read_file streams it (its first chunk shows it is binary: zeros); edit_file, which must hold
    // the whole file, refuses it for its size.
    expect(flow.results[2]).toEqual([
      'Error: refused: big.log is binary (binary data, 17825792 bytes); read_file shows text only',
      'Error: refused: big.log is larger than 16777216 bytes; read_file pages it (offset, limit); change it with a command (sed -i)',
    ]);
  });
});
