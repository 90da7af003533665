import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage } from './render.mjs';

/**
 * The "Create account" label's colour and the colour behind it as the browser draws them: each
 * painted on a canvas in sRGB, the backgrounds from the page down to the button laid over one
 * another with their alpha and the opacity of each box, as they are composited.
 */
async function drawnColours() {
  const { page, close } = await openPage('index.html', 1024);
  try {
    return await page.evaluate(() => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Create account');
      if (!button) return { missing: true };
      const chain = [];
      for (let e = button; e; e = e.parentElement) chain.unshift(e);
      const canvas = document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      const paint = (layers) => {
        ctx.globalAlpha = 1;
        ctx.fillStyle = '#ffffff'; // the canvas a page is drawn on
        ctx.fillRect(0, 0, 1, 1);
        for (const [colour, alpha] of layers) {
          ctx.globalAlpha = alpha;
          ctx.fillStyle = colour;
          ctx.fillRect(0, 0, 1, 1);
        }
        return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      let opacity = 1;
      const layers = [];
      const images = [];
      for (const e of chain) {
        const s = getComputedStyle(e);
        opacity *= Number(s.opacity);
        layers.push([s.backgroundColor, opacity]);
        if (s.backgroundImage !== 'none') images.push(e.tagName.toLowerCase());
      }
      const s = getComputedStyle(button);
      const r = button.getBoundingClientRect();
      return {
        background: paint(layers),
        text: paint([...layers, [s.webkitTextFillColor, opacity]]),
        images,
        shown: s.visibility === 'visible' && r.width > 0 && r.height > 0,
        fontPx: Number.parseFloat(s.fontSize),
      };
    });
  } finally {
    await close();
  }
}

/** WCAG 2's relative luminance of an sRGB colour, and the contrast ratio of two. */
const luminance = (rgb) =>
  rgb
    .map((v) => v / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

test('the "Create account" label reads at a contrast of 4.5:1 or more on its button', async () => {
  const m = await drawnColours();
  assert.ok(!m.missing, 'the page has its "Create account" button');
  assert.ok(m.shown, 'the button is shown');
  assert.ok(m.fontPx >= 10, `its label is ${m.fontPx} px`);
  assert.deepEqual(m.images, [], 'a background image behind the label cannot be measured here');
  const ratio = contrast(m.text, m.background);
  assert.ok(ratio >= 4.5, `contrast ${ratio.toFixed(2)}:1 (text rgb ${m.text}, background rgb ${m.background})`);
});
