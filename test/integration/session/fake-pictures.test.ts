import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../kit/fake-anthropic.ts';
import { startFakeLlm, text } from '../../kit/fake-llm.ts';

/**
 * Issue 28: the fakes take pictures only where the real providers do, and refuse them with the
 * real error shapes elsewhere, so a client that sends a picture to a text-only model is caught.
 */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const picture = { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } };
const withPicture = [
  { role: 'user', content: 'look' },
  { role: 'user', content: [{ type: 'text', text: 'the picture:' }, picture] },
];

const deepseek = await startFakeLlm({ handler: () => text('seen') });
const openai = await startFakeLlm({ handler: () => text('seen'), dialect: 'openai' });
const anthropic = await startFakeAnthropic({ handler: () => text('seen') });
afterAll(async () => {
  await deepseek.close();
  await openai.close();
  await anthropic.close();
});

const chat = async (url: string, body: Record<string, unknown>) => {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('issue 28: the fake models take pictures where the real ones do', () => {
  it('DeepSeek: the vision model reads an image_url part; deepseek-flash answers the 400 of a body it cannot read', async () => {
    const seen = await chat(deepseek.baseURL, {
      model: 'deepseek-v4-flash-vision-exp',
      messages: withPicture,
    });
    expect(seen.status).toBe(200);
    expect(deepseek.requests.at(-1)?.messages[1]).toMatchObject({
      content: 'the picture:',
      parts: [{}, picture],
    });
    const body = { model: 'deepseek-flash', messages: withPicture };
    const refused = await chat(deepseek.baseURL, body);
    expect(refused).toEqual({
      status: 400,
      body: {
        error: {
          message: `Failed to deserialize the JSON body into the target type: messages[1]: unknown variant \`image_url\`, expected \`text\` at line 1 column ${JSON.stringify(body).indexOf('"image_url"') + 1}`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request_error',
        },
      },
    });
  });

  it('OpenAI: a vision model reads it from the user; a picture elsewhere, or to a model without vision, is a 400 naming the part', async () => {
    expect((await chat(openai.baseURL, { model: 'gpt-4o', messages: withPicture })).status).toBe(200);
    expect(await chat(openai.baseURL, { model: 'gpt-3.5-turbo', messages: withPicture })).toEqual({
      status: 400,
      body: {
        error: {
          message: 'Invalid content type. image_url is only supported by certain models.',
          type: 'invalid_request_error',
          param: 'messages.[1].content.[1].type',
          code: null,
        },
      },
    });
    const inTool = [
      { role: 'user', content: 'look' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: [picture] },
    ];
    const refused = await chat(openai.baseURL, { model: 'gpt-4o', messages: inTool });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      message:
        "Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.",
      param: 'messages.[2].content.[0].type',
    });
  });

  it('Anthropic: a PNG inside a tool_result is read; a wrong media type, or data that is not the type it says, is a 400', async () => {
    const post = async (image: Record<string, unknown>) => {
      const res = await fetch(`${anthropic.baseURL}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': 'test-key',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({
          model: 'claude-haiku-4-5',
          max_tokens: 100,
          messages: [
            { role: 'user', content: 'look' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'screenshot', input: {} }] },
            {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: 'c1',
                  content: [
                    { type: 'text', text: 'took it' },
                    { type: 'image', source: image },
                  ],
                },
              ],
            },
          ],
        }),
      });
      return {
        status: res.status,
        body: (await res.json()) as { error?: { type: string; message: string } },
      };
    };
    expect((await post({ type: 'base64', media_type: 'image/png', data: PNG })).status).toBe(200);
    expect(anthropic.requests.at(-1)?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'took it' });
    expect(await post({ type: 'base64', media_type: 'image/bmp', data: PNG })).toMatchObject({
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message:
            "messages.2.content.0.tool_result.content.1.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
        },
      },
    });
    const jpegClaim = await post({ type: 'base64', media_type: 'image/jpeg', data: PNG });
    expect(jpegClaim.body.error?.message).toBe(
      'messages.2.content.0.tool_result.content.1.image.source.base64.data: The image was specified using the image/jpeg media type, but the image appears to be a image/png image',
    );
  });
});
