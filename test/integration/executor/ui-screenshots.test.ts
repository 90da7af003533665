import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../kit/app.ts';
import { toolCalls } from '../../kit/fake-llm.ts';
import { localMessage, send } from '../routing/helpers.ts';
import { executorFlow, SECRETS, startWorld, type World } from './harness.ts';

/** The fixture's UI: a page, its style sheet (in the world's repository already), and a tiny static server. */
const FILES = {
  'index.html':
    '<!doctype html><html><head><title>Acme web</title><link rel="stylesheet" href="/web/style.css"></head><body><h1>Acme</h1><p>Sign in</p></body></html>\n',
  'serve.mjs': `import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
const types = { html: 'text/html', css: 'text/css' };
createServer(async (req, res) => {
  const path = req.url === '/' ? 'index.html' : req.url.slice(1).split('?')[0];
  try {
    const body = await readFile(path);
    res.writeHead(200, { 'content-type': types[path.split('.').pop()] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
}).listen(Number(process.argv[2]), '127.0.0.1');
`,
};

const PAGE = 'http://127.0.0.1:8181/';
const SERVE = 'node serve.mjs 8181';
const ack = (card: string) => toolCalls(['reply', { to: card, text: `Working on acme/web for ${card}.` }]);
const api = (w: World, path: string) =>
  fetch(`${w.app.url}${path}`, { headers: { authorization: `Bearer ${SECRETS.ADMIN_TOKEN}` } });

describe('issue 15: honest UI delivery (R-C6) — screenshots from the running product, in headless Chromium', () => {
  let w: World;
  beforeEach(async () => {
    w = await startWorld({}, { files: FILES });
  });
  afterEach(async () => {
    await w.close();
  });

  it('R-C6: a UI change is refused "ready" without a "before" screenshot at the base commit, and accepted with it and an "after" at HEAD', async () => {
    const base = w.repo.git('rev-parse', 'main');
    const flow = executorFlow(w.llm, [
      (_r, card) => ack(card),
      () =>
        toolCalls(
          ['read_file', { path: 'web/style.css' }],
          [
            'write_file',
            { path: 'web/style.css', content: 'body { background: rgb(0, 0, 128); color: white; }\n' },
          ],
        ),
      () => toolCalls(['commit_and_push', { message: 'Navy background' }]),
      () => toolCalls(['open_pr', { title: 'Navy background', body: 'Colour change.' }]),
      () => toolCalls(['record_verification', { command: 'grep -q background web/style.css' }]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'PR open.' }]),
      () => toolCalls(['screenshot', { serve: SERVE, url: 'http://169.254.169.254/', at: 'base' }]),
      () => toolCalls(['screenshot', { serve: SERVE, url: PAGE, at: 'base', width: 400, height: 300 }]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['screenshot', { serve: SERVE, url: PAGE, at: 'head', width: 400, height: 300 }]),
      // Issue 48: the first call that passes the checks shows the diff; the second marks it ready.
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['mark_pr_ready', {}]),
      () => toolCalls(['report', { status: 'done', summary: 'PR ready.' }]),
    ]);
    const card = await send(w.app.ctx, localMessage('Please make the page background navy'));
    await waitFor(() => flow.results.length >= 14, 'the executor flow', 150_000);
    const r = flow.results.map((x) => x.join('\n'));
    expect(r[5]).toMatch(
      new RegExp(
        `refused: the change touches UI files \\(web/style\\.css\\) and has no "before" screenshot taken at the base commit ${base.slice(0, 12)}; take one with screenshot at "base"`,
      ),
    );
    expect(r[6]).toMatch(/refused: not done — PR acme\/web#\d+ is still a draft/);
    expect(r[7]).toMatch(/refused: the url must be a page of the server your serve command starts/);
    expect(r[8]).toContain(`took the "before" screenshot`);
    expect(r[8]).toContain(`at base commit ${base.slice(0, 12)}`);
    expect(r[8]).toContain('title "Acme web"');
    expect(r[9]).toMatch(/refused: .* no "after" screenshot taken at HEAD/);
    expect(r[10]).toContain('took the "after" screenshot');
    expect(r[11]).toMatch(/^Error: Not yet: look at what you deliver before marking the PR ready/);
    expect(r[12]).toContain('is ready for review');
    expect(r[13]).toContain('recorded done');

    // Listed on the ticket with the commit each shows; a person opens the PNGs through the API.
    const ticket = await waitFor(
      async () => (await w.app.ctx.redis.smembers(w.app.ctx.keys.cardOwners(card)))[0],
      'the ticket',
    );
    const detail = (await (await api(w, `/api/tickets/${ticket}`)).json()) as {
      screenshots: { when: string; commit: string; dirty: boolean; href: string }[];
      pr: { number: number };
    };
    // The ticket's branch as pushed: the "after" shows it.
    const pushed = w.repo.git('for-each-ref', '--format=%(objectname)', 'refs/heads/sy/');
    expect(detail.screenshots.map((s) => [s.when, s.commit, s.dirty])).toEqual([
      ['before', base, false],
      ['after', pushed, false],
    ]);
    const pngs = await Promise.all(
      detail.screenshots.map(async (s) => {
        const res = await api(w, s.href);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    for (const png of pngs) {
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([400, 300]);
    }
    // The base commit's page and HEAD's differ: the "before" is not the changed page.
    expect(pngs[0]?.equals(pngs[1] as Buffer)).toBe(false);
    expect((await fetch(`${w.app.url}${detail.screenshots[0]?.href}`)).status).toBe(401);
    await waitFor(
      () =>
        w.gh.comments.find(
          (c) =>
            c.number === detail.pr.number &&
            c.body.startsWith(`Before screenshot of \`${PAGE}\` at the base commit ${base.slice(0, 12)}`),
        ),
      'the "before" comment on the PR',
    );
  }, 180_000);
});
