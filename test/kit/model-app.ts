import { afterEach, beforeEach } from 'vitest';
import { startTestApp, type TestApp } from './app.ts';
import { type FakeLlm, startFakeLlm } from './fake-llm.ts';

export interface ModelApp {
  readonly app: TestApp;
  readonly llm: FakeLlm;
}

/**
 * For each test of a file: a fake model on loopback and the real product wired to it (server and
 * workers on a fresh Redis prefix), started before the test and closed after it — no test sees
 * another's tickets, cards or model requests (issue 20).
 */
export function useModelApp(env: Record<string, string> = {}): ModelApp {
  let app: TestApp | undefined;
  let llm: FakeLlm | undefined;
  beforeEach(async () => {
    llm = await startFakeLlm();
    app = await startTestApp({ LLM_BASE_URL: llm.baseURL, LLM_API_KEY: 'test-key', ...env });
  });
  afterEach(async () => {
    await app?.close();
    await llm?.close();
  });
  const started = <T>(v: T | undefined): T => {
    if (!v) throw new Error('useModelApp: used before its beforeEach ran');
    return v;
  };
  return {
    get app() {
      return started(app);
    },
    get llm() {
      return started(llm);
    },
  };
}
