import { hostedSpawn } from '../spawn-host/hosted-spawn.ts';

/** Bytes folders take on disk together (`du -sxc`); 0 when it cannot be measured (R-H3 disk cap). */
export function diskUsage(dirs: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const du = hostedSpawn('du', ['-s', '-x', '-c', '--block-size=1', '--', ...dirs], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let text = '';
    du.stdout?.on('data', (b: Buffer) => {
      text += b.toString();
    });
    du.on('error', () => resolve(0));
    // The last line is the total.
    du.on('close', () => resolve(Number(text.trim().split('\n').at(-1)?.split(/\s/)[0]) || 0));
  });
}
