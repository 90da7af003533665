import encodeQR from 'qr';

/** The standard quiet zone around a QR code, in modules. */
const QUIET = 4;

/** Each row's dark runs as one path segment: a few kilobytes for a long link, not a square per module. */
function darkRuns(rows: boolean[][]): string {
  const parts: string[] = [];
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; ) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      let end = x;
      while (row[end]) end += 1;
      parts.push(`M${x} ${y}h${end - x}v1h-${end - x}z`);
      x = end;
    }
  });
  return parts.join('');
}

/**
 * A QR code of `text` as an SVG `data:` URL, for an `<img>` under the panel's policy
 * (`img-src 'self' data:`; no script, no inline style): medium error correction, a white
 * background with the standard quiet zone of four modules (so it reads on a dark page too).
 */
export function qrDataUrl(text: string): string {
  const rows = encodeQR(text, 'raw', { ecc: 'medium', border: QUIET });
  const size = rows.length;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${darkRuns(rows)}"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
