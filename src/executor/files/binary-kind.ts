/** Bytes looked at for a NUL, as git and grep do. */
const SNIFF_BYTES = 8192;

/** Magic numbers of the binary files a checkout most often holds, by their first bytes. */
const MAGIC: [string, number[]][] = [
  ['PNG image', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['PDF document', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['zip archive', [0x50, 0x4b, 0x03, 0x04]],
  ['gzip archive', [0x1f, 0x8b]],
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
];

const startsWith = (data: Buffer, magic: number[]) => magic.every((b, i) => data[i] === b);

/**
 * What kind of binary file `data` is ("PNG image", "binary data"), or undefined for text: a known
 * magic number, else a NUL byte in the first 8 kB.
 */
export function binaryKind(data: Buffer): string | undefined {
  const known = MAGIC.find(([, magic]) => startsWith(data, magic));
  if (known) return known[0];
  if (
    data.length >= 12 &&
    data.toString('latin1', 0, 4) === 'RIFF' &&
    data.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'WebP image';
  return data.subarray(0, SNIFF_BYTES).includes(0) ? 'binary data' : undefined;
}
