import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cardAction,
  encryptFeishu,
  groupMention,
  messageEvent,
  p2pMessage,
  sendFeishuEvent,
  urlVerification,
} from '../../kit/feishu-webhook.ts';
import { cardKeys, ENCRYPT_KEY, type FeishuHarness, startFeishuHarness, VERIFY_TOKEN } from './harness.ts';

describe('Feishu webhook rejects what it cannot trust (R-A1)', () => {
  let h: FeishuHarness;
  beforeEach(async () => {
    h = await startFeishuHarness({}, { workers: false });
  });
  afterEach(() => h.close());

  const mention = () => groupMention('do it', h.feishu.bot.openId);

  async function expectRejected(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ code });
    expect(await cardKeys(h.app)).toEqual([]);
  }

  it('R-A1: a bad signature is 401 and stores nothing', async () => {
    await expectRejected(
      await sendFeishuEvent(h.hook, mention(), { encryptKey: ENCRYPT_KEY, tamper: 'signature' }),
      401,
      'bad_signature',
    );
  });

  it('R-A1: a body changed after signing is 401 and stores nothing', async () => {
    await expectRejected(
      await sendFeishuEvent(h.hook, mention(), { encryptKey: ENCRYPT_KEY, tamper: 'body' }),
      401,
      'bad_signature',
    );
  });

  it('R-A1: missing signature headers are 401 and store nothing', async () => {
    for (const omit of [
      ['signature'],
      ['timestamp'],
      ['nonce'],
      ['signature', 'timestamp', 'nonce'],
    ] as const) {
      await expectRejected(
        await sendFeishuEvent(h.hook, mention(), { encryptKey: ENCRYPT_KEY, omit: [...omit] }),
        401,
        'signature_missing',
      );
    }
  });

  it('R-A1: a stale or future timestamp (a replay) is 401 even when correctly signed', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const timestamp of [now - 6 * 60, now + 6 * 60]) {
      await expectRejected(
        await sendFeishuEvent(h.hook, mention(), { encryptKey: ENCRYPT_KEY, timestamp }),
        401,
        'stale_timestamp',
      );
    }
  });

  it('R-A1: a push signed and encrypted with another key is 401', async () => {
    await expectRejected(
      await sendFeishuEvent(h.hook, mention(), { encryptKey: 'someone-elses-key' }),
      401,
      'bad_signature',
    );
  });

  it('R-A1: a correctly signed body that does not decrypt with our key is 400', async () => {
    await expectRejected(
      await sendFeishuEvent(h.hook, mention(), { encryptKey: ENCRYPT_KEY, encryptWith: 'wrong-key' }),
      400,
      'undecryptable',
    );
    await expectRejected(
      await sendFeishuEvent(h.hook, mention(), {
        encryptKey: ENCRYPT_KEY,
        rawBody: '{"encrypt":"bm90IGNpcGhlcg=="}',
      }),
      400,
      'undecryptable',
    );
  });

  it('R-A1: truncated JSON is 400 and stores nothing', async () => {
    const whole = JSON.stringify(mention());
    await expectRejected(
      await sendFeishuEvent(h.hook, null, {
        encryptKey: ENCRYPT_KEY,
        rawBody: whole.slice(0, whole.length / 2),
      }),
      400,
      'malformed_json',
    );
  });

  it('R-A1: a body over 1 MiB is 400 and stores nothing', async () => {
    const big = p2pMessage('x'.repeat(1024 * 1024 + 10));
    await expectRejected(
      await sendFeishuEvent(h.hook, big, { encryptKey: ENCRYPT_KEY }),
      400,
      'body_too_large',
    );
  });

  it('R-A1: a wrong verification token is 401 even with a good signature', async () => {
    await expectRejected(
      await sendFeishuEvent(h.hook, groupMention('x', h.feishu.bot.openId, { token: 'not-ours' }), {
        encryptKey: ENCRYPT_KEY,
      }),
      401,
      'bad_token',
    );
  });

  it('R-A1: a signed event missing required fields is 400', async () => {
    const event = mention() as { event: { message: Partial<{ chat_id: string }> } };
    delete event.event.message.chat_id;
    await expectRejected(
      await sendFeishuEvent(h.hook, event, { encryptKey: ENCRYPT_KEY }),
      400,
      'malformed_event',
    );
  });

  it('R-A1: a signed post with odd elements (null, a number for text) or a press nested 100,000 deep is read, never a 500', async () => {
    for (const content of [
      JSON.stringify({ content: [[null]] }),
      JSON.stringify({
        content: [
          [
            { tag: 'text', text: 5 },
            { tag: 'a', href: {}, text: 'x' },
          ],
        ],
      }),
    ]) {
      const res = await sendFeishuEvent(
        h.hook,
        messageEvent({ messageType: 'post', content, chatType: 'p2p', chatId: 'oc_dm_alice' }),
        { encryptKey: ENCRYPT_KEY },
      );
      expect(res.status, content).toBe(200);
    }
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    for (const value of [deep, `{"action":"x","form":${deep}}`]) {
      const rawBody = JSON.stringify(cardAction({ value: 'VALUE' })).replace('"VALUE"', value);
      const res = await sendFeishuEvent(h.hook, null, { encryptKey: ENCRYPT_KEY, rawBody });
      expect(res.status).toBe(200);
    }
  });

  it('R-A1: the URL-verification challenge is answered, encrypted and unsigned as Feishu sends it', async () => {
    const res = await sendFeishuEvent(h.hook, urlVerification('ch-123', VERIFY_TOKEN), {
      encryptKey: ENCRYPT_KEY,
      omit: ['signature', 'timestamp', 'nonce'],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: 'ch-123' });
    const signed = await sendFeishuEvent(h.hook, urlVerification('ch-456', VERIFY_TOKEN), {
      encryptKey: ENCRYPT_KEY,
    });
    expect(await signed.json()).toEqual({ challenge: 'ch-456' });
    expect(await cardKeys(h.app)).toEqual([]);
  });

  it('R-A1: a challenge with the wrong token or an undecryptable body is refused', async () => {
    const unsigned = { omit: ['signature', 'timestamp', 'nonce'] as ('signature' | 'timestamp' | 'nonce')[] };
    const wrongToken = await sendFeishuEvent(h.hook, urlVerification('ch', 'nope'), {
      encryptKey: ENCRYPT_KEY,
      ...unsigned,
    });
    expect(wrongToken.status).toBe(401);
    const wrongKey = await sendFeishuEvent(h.hook, urlVerification('ch', VERIFY_TOKEN), {
      encryptKey: 'another-key',
      ...unsigned,
    });
    expect(wrongKey.status).toBe(401);
  });

  it('R-A1: an event without a signature is 401 even when it decrypts', async () => {
    await expectRejected(
      await sendFeishuEvent(h.hook, mention(), {
        encryptKey: ENCRYPT_KEY,
        omit: ['signature', 'timestamp', 'nonce'],
      }),
      401,
      'signature_missing',
    );
  });
});

describe('issue 14: an unsigned Feishu push is only ever the challenge (R-A1)', () => {
  let h: FeishuHarness;
  beforeEach(async () => {
    h = await startFeishuHarness({}, { workers: false });
  });
  afterEach(() => h.close());

  const unsigned = { omit: ['signature', 'timestamp', 'nonce'] as ('signature' | 'timestamp' | 'nonce')[] };
  const validCipher = () => encryptFeishu(JSON.stringify(p2pMessage('hi')), ENCRYPT_KEY);
  /** The same ciphertext with its last block changed: the padding no longer checks out. */
  const badPadding = () => {
    const bytes = Buffer.from(validCipher(), 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x5a;
    return bytes.toString('base64');
  };

  it('R-A1: every unsigned request that is not our challenge gets one and the same answer, and stores nothing', async () => {
    const attempts: [string, unknown, Parameters<typeof sendFeishuEvent>[2]][] = [
      ['plain event with the right token', p2pMessage('hi'), { encrypt: false, ...unsigned }],
      ['event encrypted with our key', p2pMessage('hi'), { encryptKey: ENCRYPT_KEY, ...unsigned }],
      ['bad padding', null, { rawBody: JSON.stringify({ encrypt: badPadding() }), ...unsigned }],
      ['not a cipher', null, { rawBody: '{"encrypt":"bm90IGNpcGhlcg=="}', ...unsigned }],
      [
        'decrypts to non-JSON',
        null,
        { rawBody: JSON.stringify({ encrypt: encryptFeishu('not json', ENCRYPT_KEY) }), ...unsigned },
      ],
      ['not JSON at all', null, { rawBody: '{"encrypt":', ...unsigned }],
      [
        'plain challenge with the right token',
        urlVerification('c', VERIFY_TOKEN),
        { encrypt: false, ...unsigned },
      ],
      [
        'challenge with a wrong token',
        urlVerification('c', 'nope'),
        { encryptKey: ENCRYPT_KEY, ...unsigned },
      ],
      [
        'challenge under another key',
        urlVerification('c', VERIFY_TOKEN),
        { encryptKey: 'other', ...unsigned },
      ],
      ['only a nonce', p2pMessage('hi'), { encryptKey: ENCRYPT_KEY, omit: ['signature', 'timestamp'] }],
    ];
    const answers = new Set<string>();
    for (const [name, event, opts] of attempts) {
      const res = await sendFeishuEvent(h.hook, event, opts);
      answers.add(`${res.status} ${await res.text()}`);
      expect(answers.size, name).toBe(1);
    }
    expect([...answers][0]).toMatch(/^401 /);
    expect(await cardKeys(h.app)).toEqual([]);
  });

  it('R-A1: the one unsigned request answered is the encrypted challenge with our verification token', async () => {
    const res = await sendFeishuEvent(h.hook, urlVerification('only-this', VERIFY_TOKEN), {
      encryptKey: ENCRYPT_KEY,
      ...unsigned,
    });
    expect(await res.json()).toEqual({ challenge: 'only-this' });
  });
});
