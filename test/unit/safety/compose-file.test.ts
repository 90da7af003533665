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
