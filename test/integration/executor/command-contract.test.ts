import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 28 ("What it must show"): run_command's and read_file's model-facing answers for a
 * background server with its client in one command, and for a 30 MB log — through the real
 * sandbox, a scripted model and Redis.
 */

/** 30 MiB of "build step ok\n" (14 bytes a line) cut mid-line, then "END": the last line is partial. */
const LOG_LINES = Math.ceil(31457280 / 14);
const row = (n: number, text: string) => `${String(n).padStart(6)}\t${text}`;
const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);
const SERVER = `node -e "require('http').createServer((q, s) => s.end('pong')).listen(8123, () => console.log('listening'))"`;
const CLIENT = `node -e "fetch('http://127.0.0.1:8123').then((r) => r.text()).then((t) => console.log('got ' + t), () => console.log('refused'))"`;

describe('issue 28: run_command on a server with its client, and a 30 MB log', () => {
  let w: World;
  afterEach(async () => {
    await w.close();
  });

  it('a server and its client run in one command; the server dies with it, so the next command finds nothing listening', async () => {
    w = await startWorld();
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () => toolCalls(['run_command', { command: `${SERVER} & sleep 1; ${CLIENT}`, timeout_seconds: 20 }]),
      () => toolCalls(['run_command', { command: CLIENT, timeout_seconds: 20 }]),
    ]);
    await send(w.app.ctx, localMessage('Please check the web app answers'));
    await flow.done();
    // The client reached the server started in the same command, and the command ended when the
    // client did — the server in the background did not hold it until its time-out.
    expect(flow.results[1]).toEqual(['exit 0\nlistening\ngot pong\n']);
    // No state persists between calls: nothing listens any more.
    expect(flow.results[2]).toEqual(['exit 0\nrefused\n']);
  });

  it('a 30 MB log: cat keeps its head and tail; read_file pages it by lines, to its last one', async () => {
    w = await startWorld();
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls([
          'run_command',
          {
            command:
              "yes 'build step ok' | head -c 31457280 > build.log; echo END >> build.log; cat build.log",
          },
        ]),
      () => toolCalls(['read_file', { path: 'build.log' }]),
      () => toolCalls(['read_file', { path: 'build.log', offset: LOG_LINES - 1, limit: 5 }]),
      () => toolCalls(['read_file', { path: 'build.log', offset: LOG_LINES + 5 }]),
    ]);
    await send(w.app.ctx, localMessage('Please look at the build log of the web app'));
    await flow.done();
    // The command's output keeps its head and its tail, with what was cut said between them.
    const [cat] = flow.results[1] ?? [];
    expect(cat?.startsWith('exit 0\nbuild step ok\nbuild step ok\n')).toBe(true);
    expect(cat?.endsWith('build step ok\nbuild stEND\n')).toBe(true);
    expect(cat).toMatch(/\n… \[\d+ bytes cut\] …\n/);
    expect(cat?.length).toBeLessThan(25_000);
    // read_file pages the 30 MB file by lines instead of refusing it: 500 numbered lines first.
    const [first] = flow.results[2] ?? [];
    expect(first?.split('\n').slice(0, 2)).toEqual([row(1, 'build step ok'), row(2, 'build step ok')]);
    expect(first?.split('\n').at(-1)).toBe(
      `(lines 1–500 of ${LOG_LINES}; build.log is 30.0 MB; offset=501 to continue)`,
    );
    // Its last lines (the partial last one included), and the end said plainly.
    expect(flow.results[3]).toEqual([
      [
        row(LOG_LINES - 1, 'build step ok'),
        row(LOG_LINES, 'build stEND'),
        `(lines ${LOG_LINES - 1}–${LOG_LINES} of ${LOG_LINES}; build.log is 30.0 MB)`,
      ].join('\n'),
    ]);
    expect(flow.results[4]).toEqual([
      `Error: offset ${LOG_LINES + 5} is past the end: build.log has ${LOG_LINES} lines`,
    ]);
  }, 60_000);
});
