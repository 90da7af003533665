import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';

describe('start-up doctor configuration (issue 12)', () => {
  it('a process start asks the model nothing unless STARTUP_DOCTOR=full (no tokens spent, no scripted answer taken)', () => {
    expect(loadConfig({}).STARTUP_DOCTOR).toBe('quick');
    expect(loadConfig({ STARTUP_DOCTOR: 'full' }).STARTUP_DOCTOR).toBe('full');
  });
});
