import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { NODE_TS } from '../../kit/source-node.ts';

const src = (path: string) => JSON.stringify(new URL(`../../../src/${path}`, import.meta.url).href);

/**
 * Start-up cost: Anthropic's SDK (about 270 modules, a fifth of the product's) loads on the first
 * request to an Anthropic model, not with the product — a process whose model is another
 * provider's never loads it. Counted in a fresh process by a module-load hook.
 */
it('the product’s model clients and retry policy load without Anthropic’s SDK; the first request loads it', () => {
  const script = `
    import { registerHooks } from 'node:module';
    let sdk = 0;
    registerHooks({ load(url, ctx, next) { if (url.includes('@anthropic-ai/sdk')) sdk++; return next(url, ctx); } });
    await import(${src('session/create-model-for-config.ts')});
    await import(${src('session/retry-policy.ts')});
    const before = sdk;
    const { loadAnthropicSdk } = await import(${src('session/anthropic-sdk.ts')});
    await loadAnthropicSdk();
    console.log(JSON.stringify({ before, after: sdk }));
  `;
  const r = spawnSync(process.execPath, [...NODE_TS, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  expect(r.stderr).toBe('');
  const counts = JSON.parse(r.stdout) as { before: number; after: number };
  expect(counts.before).toBe(0);
  expect(counts.after).toBeGreaterThan(100);
});
