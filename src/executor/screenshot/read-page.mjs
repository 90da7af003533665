// The page as text for a model that reads no pictures (issue 48 item 6), read by the screenshot
// driver (shoot-page.mjs) in the sandbox after the picture is taken. Plain JavaScript, like the
// driver. Each in-page function is sent to the browser whole, so each is self-contained.

/** The most characters of visible text and of the accessibility snapshot, and the most findings listed. */
const TEXT_CHARS = 2000;
const ARIA_CHARS = 3000;
const LISTED = 10;
/** Elements looked at, at most, in document order. */
const ELEMENTS = 5000;

/**
 * Visible text, the elements wider than the viewport (or sticking out of it, unclipped), and the
 * text below 4.5:1 contrast with its colours. Runs in the page.
 */
function facts({ textChars, listed, elements }) {
  const vw = document.documentElement.clientWidth;
  const all = [...document.body.querySelectorAll('*')].slice(0, elements);
  const selector = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && parts.length < 3; e = e.parentElement) {
      if (e.id) {
        parts.unshift(`${e.localName}#${CSS.escape(e.id)}`);
        break;
      }
      const cls = [...e.classList]
        .slice(0, 2)
        .map((c) => `.${CSS.escape(c)}`)
        .join('');
      parts.unshift(`${e.localName}${cls}`);
      if (e === document.body) break;
    }
    return parts.join(' > ');
  };
  // Wider than the viewport, or sticking out of its right edge, and not clipped or scrolled by an
  // ancestor inside the viewport (a wide table in an overflow-x: auto box is how it should be).
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible' && a.getBoundingClientRect().right <= vw + 0.5)
        return true;
    }
    return false;
  };
  const wide = [];
  const listedBoxes = new Map();
  for (const el of all) {
    if (wide.length >= listed) break;
    const r = el.getBoundingClientRect();
    if (r.width <= vw + 0.5 && r.right <= vw + 0.5) continue;
    if (r.width === 0 || r.height === 0 || clipped(el)) continue;
    // A child no wider than a listed ancestor, ending where it does, is that ancestor's overflow.
    let explained = false;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const box = listedBoxes.get(a);
      if (box && box.width >= r.width - 1 && box.right >= r.right - 1) explained = true;
    }
    if (explained) continue;
    listedBoxes.set(el, r);
    wide.push({ selector: selector(el), width: Math.round(r.width), right: Math.round(r.right) });
  }
  // Colours as sRGB bytes, whatever CSS syntax the page used: a 1-pixel canvas converts them.
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  const rgba = (css) => {
    g.clearRect(0, 0, 1, 1);
    g.fillStyle = '#000';
    g.fillStyle = css;
    g.fillRect(0, 0, 1, 1);
    const [r, gr, b, a] = g.getImageData(0, 0, 1, 1).data;
    return [r, gr, b, a / 255];
  };
  const over = ([r, gr, b, a], [br, bg, bb]) => [
    r * a + br * (1 - a),
    gr * a + bg * (1 - a),
    b * a + bb * (1 - a),
  ];
  /** The colour behind `el`: its and its ancestors' backgrounds over white; undefined behind an image. */
  const backdrop = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none') return undefined;
      const c = rgba(s.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reduceRight((bg, layer) => over(layer, bg), [255, 255, 255]);
  };
  const luminance = (rgb) => {
    const [r, gr, b] = rgb.map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * gr + 0.0722 * b;
  };
  const hex = (rgb) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
  const low = [];
  const seen = new Set();
  for (const el of all) {
    if (low.length >= listed) break;
    const own = [...el.childNodes]
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!own) continue;
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (s.visibility !== 'visible' || Number(s.opacity) === 0 || r.width === 0 || r.height === 0) continue;
    const bg = backdrop(el);
    if (!bg) continue;
    const fg = over(rgba(s.color), bg);
    const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    if (ratio >= 4.5) continue;
    const text = own.length > 60 ? `${own.slice(0, 60)}…` : own;
    const key = `${text}|${hex(fg)}|${hex(bg)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    low.push({
      text,
      selector: selector(el),
      color: hex(fg),
      background: hex(bg),
      ratio: Math.floor(ratio * 100) / 100,
    });
  }
  // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered (hidden text left out) is the point
  const visible = (document.body.innerText ?? '').replace(/\n{3,}/g, '\n\n').trim();
  return {
    viewportWidth: vw,
    scrollWidth: document.documentElement.scrollWidth,
    wide,
    lowContrast: low,
    text: visible.length > textChars ? `${visible.slice(0, textChars)} [… cut]` : visible,
  };
}

/**
 * Hides from the accessibility tree what lies wholly outside the viewport, so the snapshot shows
 * what the picture shows; the attributes it changed are put back by `unhide`.
 */
function hideOffscreen(elements) {
  const vw = innerWidth;
  const vh = innerHeight;
  for (const el of [...document.body.querySelectorAll('*')].slice(0, elements)) {
    if (el.closest('[data-switchyard-offscreen]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw) continue;
    el.setAttribute('data-switchyard-offscreen', el.getAttribute('aria-hidden') ?? '\u0000');
    el.setAttribute('aria-hidden', 'true');
  }
}

function unhide() {
  for (const el of document.querySelectorAll('[data-switchyard-offscreen]')) {
    const was = el.getAttribute('data-switchyard-offscreen');
    if (was === '\u0000') el.removeAttribute('aria-hidden');
    else el.setAttribute('aria-hidden', was);
    el.removeAttribute('data-switchyard-offscreen');
  }
}

/** The page as text: `facts` and the viewport's accessibility snapshot (Playwright's ARIA snapshot). */
export async function readPage(page) {
  const found = await page.evaluate(facts, { textChars: TEXT_CHARS, listed: LISTED, elements: ELEMENTS });
  let aria;
  try {
    await page.evaluate(hideOffscreen, ELEMENTS);
    aria = await page.locator('body').ariaSnapshot({ timeout: 10_000 });
  } catch (err) {
    aria = `(no accessibility snapshot: ${String(err?.message ?? err).slice(0, 200)})`;
  } finally {
    await page.evaluate(unhide).catch(() => undefined);
  }
  return { ...found, aria: aria.length > ARIA_CHARS ? `${aria.slice(0, ARIA_CHARS)}\n[… cut]` : aria };
}
