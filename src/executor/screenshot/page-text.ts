import type { PageText } from './screenshot-run.ts';

/**
 * The page as text, for a model that reads no pictures (issue 48 item 6): what overflows the
 * viewport, the text below 4.5:1 contrast with its colours, the visible text and the viewport's
 * accessibility snapshot — what a person would see wrong in the picture, in words.
 */
export function pageAsText(t: PageText): string {
  const lines = ['The page as text (your model reads no pictures):'];
  const scrolls = t.scrollWidth > t.viewportWidth;
  if (t.wide.length || scrolls) {
    lines.push(
      `Wider than the ${t.viewportWidth} px viewport${scrolls ? ` (the page scrolls sideways: ${t.scrollWidth} px wide)` : ''}:`,
      ...t.wide.map((w) => `- ${w.selector}: ${w.width} px wide, right edge at ${w.right} px`),
    );
  } else lines.push(`Nothing is wider than the ${t.viewportWidth} px viewport.`);
  if (t.lowContrast.length)
    lines.push(
      'Text below 4.5:1 contrast (WCAG AA):',
      ...t.lowContrast.map(
        (c) => `- "${c.text}" (${c.selector}): ${c.color} on ${c.background}, ${c.ratio.toFixed(2)}:1`,
      ),
    );
  else lines.push('No text below 4.5:1 contrast (text over a background image is not checked).');
  lines.push(
    'Visible text:',
    t.text || '(none)',
    'Accessibility snapshot of the viewport:',
    t.aria || '(empty)',
  );
  return lines.join('\n');
}
