import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readManifest } from '../../../src/eval/traffic-file.ts';

/** Issue 29, `--replay DIR`: a folder that is not a usable recording is refused with the reason, never a stack trace. */
it('issue 29: --replay refuses a missing, cut or foreign recording.json with the reason', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-manifest-'));
  try {
    expect(readManifest(dir)).toMatch(/is not a recording \(no recording\.json; make one with --record\)$/);
    writeFileSync(join(dir, 'recording.json'), '{"version": 1, "cre');
    expect(readManifest(dir)).toMatch(/recording\.json is not JSON \(.+\)$/);
    writeFileSync(join(dir, 'recording.json'), '{"hello": "world"}');
    expect(readManifest(dir)).toMatch(/recording\.json: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
