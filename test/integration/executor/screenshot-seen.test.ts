import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { type RecordedMessage, type RecordedRequest, toolCalls } from '../../kit/fake-llm.ts';
import { lastToolResults } from '../../kit/scripted-model.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorRequests, startWorld, type World } from './harness.ts';

/** A page and a tiny static server for it, in the world's repository. */
const FILES = {
  'index.html':
    '<!doctype html><html><head><title>Acme web</title></head><body><h1>Acme</h1></body></html>\n',
  'serve.mjs': `import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
createServer(async (req, res) => {
  const body = await readFile('index.html');
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1');
`,
};
const shoot = (width: number, height: number) =>
  toolCalls([
    'screenshot',
    { serve: 'node serve.mjs 8182', url: 'http://127.0.0.1:8182/', at: 'head', width, height },
  ]);

/** The user message of content parts after the request's last tool results, if any. */
const pictures = (req: RecordedRequest): RecordedMessage['parts'] => req.messages.at(-1)?.parts;

/** The width and height a data URL's PNG says it has. */
function pngSizeOf(url: string | undefined): [number, number] {
  const png = Buffer.from((url ?? '').replace(/^data:image\/png;base64,/, ''), 'base64');
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/** Ack, a large screenshot, a small one, a report: the requests the model was sent. */
async function twoScreenshots(w: World): Promise<RecordedRequest[]> {
  const seen = executorRequests(w.llm, [
    (_r, card) => toolCalls(['reply', { to: card, text: `Looking at the page for ${card}.` }]),
    () => shoot(1600, 1200),
    () => shoot(400, 300),
    () => toolCalls(['report', { status: 'done', summary: 'Looked at the page.' }]),
  ]);
  await send(w.app.ctx, localMessage('Please look at the page'));
  await waitFor(() => seen.length >= 5, 'the executor flow', 150_000);
  return seen;
}

describe('issue 28: the executor sees its screenshots where the model reads pictures', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it('issue 28: DeepSeek’s vision model gets the downscaled PNG after the result, and only the newest picture whole', async () => {
    w = await startWorld({ LLM_MODEL: 'deepseek-v4-flash-vision-exp' }, { files: FILES });
    const seen = await twoScreenshots(w);
    const first = seen[2] as RecordedRequest;
    expect(lastToolResults(first)).toEqual([]);
    // The tool result stays text; the picture follows it in a user message, under a caption.
    const tool = first.messages.at(-2);
    expect(tool?.role).toBe('tool');
    expect(tool?.content).toMatch(/^took the "after" screenshot \w+: http:\/\/127\.0\.0\.1:8182\/ at HEAD/);
    expect(tool?.content).toContain('page: HTTP 200, title "Acme web"');
    // Issue 48 item 6: the page in words is for models that read no pictures only.
    expect(tool?.content).not.toContain('The page as text');
    const parts = pictures(first) ?? [];
    // 1600×1200 is 1.92 megapixels: scaled by √(1.15/1.92) to about 1.15.
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[0]?.text).toBe('[host] The picture of the tool result above (1238×928 pixels, downscaled):');
    expect(pngSizeOf(parts[1]?.image_url?.url)).toEqual([1238, 928]);

    // The second picture: it stays whole, the first is elided to a note.
    const second = seen[3] as RecordedRequest;
    const earlier = second.messages.filter((m) => m.parts).map((m) => m.parts ?? []);
    expect(earlier).toHaveLength(2);
    expect(earlier[0]).toEqual([
      {
        type: 'text',
        text: '[host] A picture of the tool result above (1238×928 pixels) was taken out of view to keep the context small: only the newest picture stays. Take the screenshot again to see it.',
      },
    ]);
    expect(earlier[1]?.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(earlier[1]?.[0]?.text).toBe(
      '[host] The picture of the tool result above (400×300 pixels, downscaled):',
    );
    expect(pngSizeOf(earlier[1]?.[1]?.image_url?.url)).toEqual([400, 300]);
    expect(lastToolResults(seen[4] as RecordedRequest).join('\n')).toContain('recorded done');
  }, 240_000);

  it('issue 28: deepseek-flash, which reads no pictures (the fake answers 400 to one), keeps the text alone', async () => {
    w = await startWorld({}, { files: FILES });
    const seen = await twoScreenshots(w);
    for (const req of seen) expect(req.messages.some((m) => m.parts)).toBe(false);
    const [result] = lastToolResults(seen[2] as RecordedRequest);
    expect(result).toMatch(/^took the "after" screenshot \w+: http:\/\/127\.0\.0\.1:8182\/ at HEAD/);
    expect(result).toContain('page: HTTP 200, title "Acme web"');
    expect(result).toContain(
      'The page as text (your model reads no pictures):\nNothing is wider than the 1600 px viewport.',
    );
    expect(lastToolResults(seen[4] as RecordedRequest).join('\n')).toContain('recorded done');
  }, 240_000);
});
