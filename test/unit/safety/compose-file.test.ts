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
  // `merge: true`: the web and worker services share their settings through YAML merge keys.
  const compose = parse(await readFile(new URL('../../../docker-compose.yml', import.meta.url), 'utf8'), {
    merge: true,
  }) as {
    services: Record<string, Service>;
  };
  const { redis, web, worker } = compose.services as { redis: Service; web: Service; worker: Service };

  it('publishes only the web port', () => {
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['web']);
    expect(web.ports).toEqual([`\${BIND_ADDRESS:-127.0.0.1}:\${PORT:-3000}:3000`]);
  });

  it('issue 31: the web port is bound to the host loopback unless BIND_ADDRESS says otherwise', () => {
    // `docker compose` fills `${VAR:-default}` in; with nothing set, this is what it publishes.
    const published = (web.ports ?? []).map((p) => p.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1'));
    expect(published).toEqual(['127.0.0.1:3000:3000']);
  });

  it('issue 31: the worker has a memory and a process ceiling that plain compose applies', () => {
    const w = worker as Service & { mem_limit?: string; pids_limit?: string | number };
    const value = (v: unknown) => String(v ?? '').replace(/^\$\{[A-Z_]+:-([^}]*)\}$/, '$1');
    // Service-level keys: `deploy.resources` needs swarm on older Compose releases.
    expect(value(w.mem_limit)).toMatch(/^\d+[kmg]$/);
    expect(Number(value(w.pids_limit))).toBeGreaterThanOrEqual(1024);
    expect((web as typeof w).mem_limit).toBeUndefined();
  });

  it('Redis requires a password from the environment, and the bot connects with it', () => {
    const command = [redis.command ?? []].flat().join(' ');
    expect(command).toContain('--requirepass "$$REDIS_PASSWORD"');
    expect(command).toContain('--maxmemory-policy noeviction');
    expect(redis.environment?.REDIS_PASSWORD).toMatch(/^\$\{REDIS_PASSWORD:\?.+\}$/);
    expect(redis.environment?.REDISCLI_AUTH).toBe(`\${REDIS_PASSWORD}`);
    for (const bot of [web, worker])
      expect(bot.environment?.REDIS_URL).toBe(`redis://:\${REDIS_PASSWORD}@redis:6379`);
  });

  it('issue 19: web and worker halves; the worker scales (no published port, no container name, its own checkouts)', () => {
    expect(web.environment?.ROLE).toBe('web');
    expect(worker.environment?.ROLE).toBe('worker');
    const w = worker as Service & { container_name?: string; volumes?: string[]; security_opt?: string[] };
    // `--scale worker=N` fails on a fixed container name or a published host port.
    expect(w.container_name).toBeUndefined();
    expect(w.ports).toBeUndefined();
    // An anonymous volume: every replica has its own checkouts and mirrors.
    expect(w.volumes).toEqual(['/data/workspaces']);
    expect(worker.environment?.HEALTH_PORT).toBe('3000');
    // Only the worker runs repository code, so only it gets the sandbox's security options.
    expect(w.security_opt).toContain('seccomp=unconfined');
    expect((web as typeof w).security_opt).toBeUndefined();
  });
});

/** Issue 16: the image the compose file builds. */
describe('Dockerfile and the bot services', async () => {
  const root = new URL('../../../', import.meta.url);
  const text = await readFile(new URL('Dockerfile', root), 'utf8');
  const compose = parse(await readFile(new URL('docker-compose.yml', root), 'utf8'), { merge: true }) as {
    services: Record<'web' | 'worker', Service & { init?: boolean; user?: string }>;
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
    for (const bot of [compose.services.web, compose.services.worker]) {
      expect(bot.user).toBeUndefined();
      expect(bot.init).toBe(true);
    }
    const apt = final.find((l) => l.includes('apt-get install')) ?? '';
    // The screenshot tool's browser: the headless shell, the first place chromiumPath looks.
    for (const pkg of [
      'bubblewrap',
      'passt',
      'iproute2',
      'git',
      'ca-certificates',
      'chromium-headless-shell',
    ]) {
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
