import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage } from './render.mjs';

/** The nav's links as drawn: their boxes, and whether the page scrolls sideways. */
async function layoutAt(width) {
  const { page, close } = await openPage('index.html', width);
  try {
    return await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      links: [...document.querySelectorAll('nav a')].map((a) => {
        const r = a.getBoundingClientRect();
        const s = getComputedStyle(a);
        return {
          text: a.textContent.trim(),
          left: r.left,
          right: r.right,
          top: Math.round(r.top),
          width: r.width,
          shown: s.visibility === 'visible' && s.display !== 'none' && Number(s.opacity) > 0,
        };
      }),
    }));
  } finally {
    await close();
  }
}

test('on a 390 px phone the nav fits the screen: no sideways scroll, every link in view', async () => {
  const m = await layoutAt(390);
  assert.ok(m.scrollWidth <= m.viewport, `the page is ${m.scrollWidth} px wide on a ${m.viewport} px screen`);
  assert.equal(m.links.length, 6, 'all six links are still there');
  for (const l of m.links) {
    assert.ok(l.shown && l.width > 0, `${l.text} is not shown`);
    assert.ok(l.left >= 0 && l.right <= m.viewport + 0.5, `${l.text} is at ${l.left}–${l.right} px, off the screen`);
  }
});

test('on a wide screen the nav stays one row', async () => {
  const m = await layoutAt(1024);
  assert.equal(m.links.length, 6);
  assert.equal(new Set(m.links.map((l) => l.top)).size, 1, 'the links are on one row');
});
