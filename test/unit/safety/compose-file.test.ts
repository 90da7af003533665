import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Service {
  ports?: string[];
  command?: string[] | string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
}

/** Issue 14 "secrets hygiene": what `docker compose up` exposes. */
describe('docker-compose.yml', async () => {
  const compose = parse(await readFile(new URL('../../../docker-compose.yml', import.meta.url), 'utf8')) as {
    services: Record<string, Service>;
  };
  const { redis, bot } = compose.services as { redis: Service; bot: Service };

  it('publishes only the bot port', () => {
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['bot']);
    expect(bot.ports).toEqual([`\${PORT:-3000}:3000`]);
  });

  it('Redis requires a password from the environment, and the bot connects with it', () => {
    const command = [redis.command ?? []].flat().join(' ');
    expect(command).toContain('--requirepass "$$REDIS_PASSWORD"');
    expect(command).toContain('--maxmemory-policy noeviction');
    expect(redis.environment?.REDIS_PASSWORD).toMatch(/^\$\{REDIS_PASSWORD:\?.+\}$/);
    expect(redis.environment?.REDISCLI_AUTH).toBe(`\${REDIS_PASSWORD}`);
    expect(bot.environment?.REDIS_URL).toBe(`redis://:\${REDIS_PASSWORD}@redis:6379`);
  });
});

/** Issue 16: the image the compose file builds. */
describe('Dockerfile and the bot service', async () => {
  const root = new URL('../../../', import.meta.url);
  const text = await readFile(new URL('Dockerfile', root), 'utf8');
  const compose = parse(await readFile(new URL('docker-compose.yml', root), 'utf8')) as {
    services: { bot: Service & { init?: boolean; user?: string } };
  };
  const build = JSON.parse(await readFile(new URL('tsconfig.build.json', root), 'utf8')) as {
    include: string[];
  };
  // Instructions with their continuation lines joined, and the last stage (what runs).
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const lastFrom = lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true);
  const final = lines.slice(lastFrom);
  const arg = (name: string) => lines.find((l) => l.startsWith(`ARG ${name}=`))?.split('=')[1];
  const jsonOf = (instr: string) => {
    const l = final.find((x) => x.startsWith(`${instr} `)) ?? '';
    return JSON.parse(l.slice(l.indexOf('['))) as string[];
  };
  /** `dist/<path>.js` must come from a `<path>.ts` that tsconfig.build.json compiles. */
  const builtFrom = (js: string) => {
    const source = js.replace(/^dist\//, '').replace(/\.js$/, '.ts');
    return build.include.some((inc) => source === inc || source.startsWith(`${inc}/`)) ? source : undefined;
  };

  it('runs on a current Node LTS (22 or 24; 20 is end of life)', () => {
    const image = final[0]?.replace(/^FROM /, '').replace(/^\$\{NODE_IMAGE\}$/, arg('NODE_IMAGE') ?? '');
    expect(image).toMatch(/^node:(22|24)[-.]/);
  });

  it('runs the compiled JavaScript that the build stage produced, not tsx', () => {
    expect(lines).toContain('RUN npm run build');
    expect(final).toContain('COPY --from=build /app/dist ./dist');
    const cmd = jsonOf('CMD');
    expect(cmd).toEqual(['node', 'dist/src/main.js']);
    expect(builtFrom(cmd[1] ?? '')).toBe('src/main.ts');
    expect(final.join('\n')).not.toMatch(/\btsx\b|npm start/);
  });

  it('runs as the non-root bot user, under an init, with the sandbox tools installed', () => {
    expect(final.filter((l) => l.startsWith('USER '))).toEqual(['USER bot']);
    expect(compose.services.bot.user).toBeUndefined();
    expect(compose.services.bot.init).toBe(true);
    const apt = final.find((l) => l.includes('apt-get install')) ?? '';
    for (const pkg of ['bubblewrap', 'passt', 'iproute2', 'git', 'ca-certificates']) {
      expect(apt.split(/\s+/)).toContain(pkg);
    }
  });

  it('its health check fits every role: the role-aware script, with a worker health port set', () => {
    const check = final.find((l) => l.startsWith('HEALTHCHECK ')) ?? '';
    const cmd = JSON.parse(check.slice(check.indexOf('['))) as string[];
    expect(cmd.slice(0, 1)).toEqual(['node']);
    expect(builtFrom(cmd[1] ?? '')).toBe('scripts/healthcheck.ts');
    const env = final.find((l) => l.startsWith('ENV ')) ?? '';
    expect(env).toMatch(/\bHEALTH_PORT=3000\b/);
    expect(env).toMatch(/\bPORT=3000\b/);
  });
});
