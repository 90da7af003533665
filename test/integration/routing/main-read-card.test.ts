import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCard } from '../../../src/cards/ingest.ts';
import type { MainBatch } from '../../../src/router/main/batch.ts';
import { mainReadCardTool } from '../../../src/router/main/read-card-tool.ts';
import { createRuntime } from '../../../src/runtime.ts';
import { startTestApp, type TestApp } from '../../kit/app.ts';
import { localMessage, send } from './helpers.ts';

const call = { sessionId: 'main-t', toolCallId: 'c1', idempotencyKey: 'main-t:c1' };

describe('R-H6: the main session reads the whole text of the cards it is routing', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startTestApp({}, { workers: false });
  });
  afterEach(async () => {
    await app.close();
  });

  it('read_card returns a candidate’s whole text in pages and refuses a card that is not a candidate of this turn', async () => {
    const rt = await createRuntime(app.ctx);
    const long = Array.from({ length: 300 }, (_, i) => `line ${i}: ${'y'.repeat(30)}`).join('\n');
    const id = await send(app.ctx, localMessage(`Please look at this\n${long}`));
    const other = await send(app.ctx, localMessage('something else entirely'));
    const card = await loadCard(app.ctx, id);
    expect(card?.truncated).toBeDefined();
    const batch: MainBatch = {
      turnId: 't',
      cards: new Map([[id, card as NonNullable<typeof card>]]),
      reasons: new Map(),
      decided: new Map(),
      notices: new Map(),
    };
    const tool = mainReadCardTool(rt, batch);
    const page = await tool.run({ card: id, offset: 4000 }, call);
    expect(page.ok && page.content).toContain('line 299: ');
    expect(page.ok && page.content).toContain('[end of card]');
    const refused = await tool.run({ card: other }, call);
    expect(refused).toEqual({ ok: false, error: `refused: ${other} is not a candidate of this turn` });
  });
});
