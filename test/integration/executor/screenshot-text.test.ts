import { afterEach, describe, expect, it } from 'vitest';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, startWorld, type World } from './harness.ts';

/**
 * Issue 48 item 6: a model that reads no pictures (deepseek-flash, the default) gets the page as
 * text with its screenshot — what overflows a 390 px viewport, text below 4.5:1 contrast with its
 * colours, the visible text and an accessibility snapshot of the viewport — from a real page in
 * headless Chromium.
 */
const PAGE = `<!doctype html><html><head><title>Prices</title><meta name="viewport" content="width=device-width">
<style>body { margin: 0; font: 16px sans-serif; background: #ffffff; color: #111111; }
.prices { width: 600px; border-collapse: collapse; } .note { color: #aaaaaa; }
.scroll { overflow-x: auto; } .footer { margin-top: 2000px; }</style></head>
<body><h1>Plans</h1><table class="prices"><tr><td>Basic</td><td>Pro</td></tr></table>
<div class="scroll"><table style="width: 800px"><tr><td>Scrolls in its box</td></tr></table></div>
<p class="note">Prices exclude tax</p><p class="footer">Far below</p></body></html>
`;
const FILES = {
  'index.html': PAGE,
  'serve.mjs': `import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
createServer(async (req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(await readFile('index.html'));
}).listen(Number(process.argv[2]), '127.0.0.1');
`,
};

describe('issue 48: eyes for text-only models', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it('issue 48: at 390 px the screenshot answer names the overflowing table and the low-contrast note, with the visible text and the viewport’s accessibility tree', async () => {
    w = await startWorld({}, { files: FILES });
    const flow = executorFlow(w.llm, [
      (_r, card) => toolCalls(['reply', { to: card, text: `Looking at the prices page for ${card}.` }]),
      () =>
        toolCalls([
          'screenshot',
          {
            serve: 'node serve.mjs 8183',
            url: 'http://127.0.0.1:8183/',
            at: 'head',
            width: 390,
            height: 700,
          },
        ]),
    ]);
    await send(w.app.ctx, localMessage('Please check the prices page on a phone'));
    await flow.done(150_000);
    const [result = ''] = flow.results[1] ?? [];
    expect(result).toMatch(/^took the "after" screenshot \w+: http:\/\/127\.0\.0\.1:8183\/ at HEAD \w{12}\n/);
    expect(result.slice(result.indexOf('\n\nThe page as text'))).toBe(
      [
        '',
        '',
        'The page as text (your model reads no pictures):',
        'Wider than the 390 px viewport (the page scrolls sideways: 600 px wide):',
        '- body > table.prices: 600 px wide, right edge at 600 px',
        'Text below 4.5:1 contrast (WCAG AA):',
        '- "Prices exclude tax" (body > p.note): #aaaaaa on #ffffff, 2.32:1',
        'Visible text:',
        'Plans\nBasic\tPro\nScrolls in its box\n\nPrices exclude tax\n\nFar below',
        'Accessibility snapshot of the viewport:',
        [
          '- heading "Plans" [level=1]',
          '- table:',
          '  - rowgroup:',
          '    - row "Basic Pro":',
          '      - cell "Basic"',
          '      - cell "Pro"',
          '- table:',
          '  - rowgroup:',
          '    - row "Scrolls in its box":',
          '      - cell "Scrolls in its box"',
          '- paragraph: Prices exclude tax',
        ].join('\n'),
      ].join('\n'),
    );
  }, 180_000);
});
