import type { DemoPull } from './demo-pull.ts';

/** The demo GitHub's two pages: the repository's pull requests, and one pull request with its diff. */

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const frame = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
pre{background:#f6f8fa;padding:1rem;overflow:auto}.add{color:#116329}.del{color:#82071e}
.badge{border:1px solid #888;border-radius:1rem;padding:0 .5rem;font-size:12px}</style></head>
<body><p><em>Local GitHub of <code>npm run demo</code></em></p>${body}</body></html>`;

export function repoPage(repo: string, pulls: DemoPull[], base: string): string {
  const rows = pulls
    .map((p) => `<li><a href="${base}/${repo}/pull/${p.number}">#${p.number} ${esc(p.title)}</a></li>`)
    .join('');
  return frame(repo, `<h1>${esc(repo)}</h1><h2>Pull requests</h2><ul>${rows || '<li>none yet</li>'}</ul>`);
}

export function pullPage(repo: string, p: DemoPull, diff: string, base: string): string {
  const lines = diff
    .split('\n')
    .map((l) => {
      const cls =
        l.startsWith('+') && !l.startsWith('+++')
          ? 'add'
          : l.startsWith('-') && !l.startsWith('---')
            ? 'del'
            : '';
      return cls ? `<span class="${cls}">${esc(l)}</span>` : esc(l);
    })
    .join('\n');
  const state = p.state === 'closed' ? 'closed' : p.draft ? 'draft' : 'open';
  return frame(
    `${p.title} · ${repo}#${p.number}`,
    `<p><a href="${base}/${repo}">${esc(repo)}</a></p><h1>${esc(p.title)} <span class="badge">${state}</span></h1>
<p><code>${esc(p.head)}</code> → <code>${esc(p.base)}</code></p><pre>${esc(p.body)}</pre><h2>Changes</h2><pre>${lines}</pre>`,
  );
}
