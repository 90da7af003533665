import { hostedSpawn } from '../spawn-host/hosted-spawn.ts';

/** Bytes a folder takes on disk (`du -sx`); 0 when it cannot be measured (R-H3 disk cap). */
export function diskUsage(dir: string): Promise<number> {
  return new Promise((resolve) => {
    const du = hostedSpawn('du', ['-s', '-x', '--block-size=1', dir], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let text = '';
    du.stdout?.on('data', (b: Buffer) => {
      text += b.toString();
    });
    du.on('error', () => resolve(0));
    du.on('close', () => resolve(Number(text.split(/\s/)[0]) || 0));
  });
}
