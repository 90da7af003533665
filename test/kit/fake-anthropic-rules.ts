/**
 * What Anthropic's `POST /v1/messages` refuses, checked by the fake before it answers (COMMON:
 * fakes obey the real contract). Messages and error types are the real API's, from its errors
 * page and the 400s it is known to send. One deliberate strictness: today's API merges
 * consecutive turns of one role, older versions and some gateways (Bedrock) refuse them; the
 * fake refuses them so a client that relies on the merge is caught.
 */

export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

export interface Refusal {
  status: number;
  type: AnthropicErrorType;
  message: string;
}

type Block = Record<string, unknown> & { type?: unknown };
type Msg = { role?: unknown; content?: unknown };

const bad = (message: string): Refusal => ({ status: 400, type: 'invalid_request_error', message });

/** Tool names (current API: up to 128 characters) and `tool_use` ids. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const MAX_BREAKPOINTS = 4;

/**
 * The key comes as `x-api-key` (the documented header) or as `Authorization: Bearer <key>`, which
 * is what the official SDK sends since 1.x; `anthropic-version` is required either way.
 */
export function checkHeaders(
  headers: Record<string, string | string[] | undefined>,
  apiKey: string,
): Refusal | undefined {
  const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
  const key = headers['x-api-key'] ?? bearer;
  if (!key) return { status: 401, type: 'authentication_error', message: 'x-api-key header is required' };
  if (key !== apiKey) return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' };
  if (!headers['anthropic-version']) return bad('anthropic-version: header is required');
  return undefined;
}

export function checkBody(body: Record<string, unknown>, models: ReadonlySet<string>): Refusal | undefined {
  if (typeof body.model !== 'string') return bad('model: Field required');
  if (!models.has(body.model))
    return { status: 404, type: 'not_found_error', message: `model: ${body.model}` };
  if (body.max_tokens === undefined) return bad('max_tokens: Field required');
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1)
    return bad('max_tokens: Input should be a valid integer greater than or equal to 1');
  return (
    checkSystem(body.system) ??
    checkTools(body.tools) ??
    checkMessages(body.messages) ??
    checkBreakpoints(body)
  );
}

function checkSystem(system: unknown): Refusal | undefined {
  if (system === undefined || typeof system === 'string') return undefined;
  if (!Array.isArray(system)) return bad('system: Input should be a valid list');
  for (const [i, b] of (system as Block[]).entries()) {
    if (b.type !== 'text') return bad(`system.${i}.type: Input should be 'text'`);
    if (typeof b.text !== 'string' || !b.text) return bad('system: text content blocks must be non-empty');
  }
  return undefined;
}

function checkTools(tools: unknown): Refusal | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return bad('tools: Input should be a valid list');
  const seen = new Set<string>();
  for (const [i, t] of (tools as Block[]).entries()) {
    const name = String(t.name ?? '');
    if (!TOOL_NAME.test(name))
      return bad(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
    if (seen.has(name)) return bad('tools: Tool names must be unique.');
    seen.add(name);
    const schema = t.input_schema as Record<string, unknown> | undefined;
    if (schema?.type !== 'object')
      return bad(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
    if (['oneOf', 'anyOf', 'allOf'].some((k) => k in schema))
      return bad(
        `tools.${i}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`,
      );
  }
  return undefined;
}

function blocksOf(m: Msg): Block[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : ((m.content ?? []) as Block[]);
}

function checkMessages(messages: unknown): Refusal | undefined {
  if (!Array.isArray(messages)) return bad('messages: Field required');
  if (!messages.length) return bad('messages: at least one message is required');
  const list = messages as Msg[];
  for (const [i, m] of list.entries()) {
    if (m.role !== 'user' && m.role !== 'assistant')
      return bad(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (i === 0 && m.role !== 'user') return bad('messages: first message must use the "user" role');
    const prev = list[i - 1];
    if (prev && prev.role === m.role)
      return bad(
        `messages: roles must alternate between "user" and "assistant", but found multiple "${m.role}" roles in a row`,
      );
    const blocks = blocksOf(m);
    if (!blocks.length)
      return bad(
        `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
      );
    for (const [j, b] of blocks.entries()) {
      if (b.type === 'text' && (typeof b.text !== 'string' || !b.text))
        return bad('messages: text content blocks must be non-empty');
      if (b.type === 'tool_use' && !TOOL_USE_ID.test(String(b.id ?? '')))
        return bad(`messages.${i}.content.${j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      const picture = checkImages(b, `messages.${i}.content.${j}`);
      if (picture) return picture;
    }
    const refused = checkPairing(list, i);
    if (refused) return refused;
  }
  return undefined;
}

/** Every `tool_use` answered at the start of the next user message; no `tool_result` without one. */
function checkPairing(list: Msg[], i: number): Refusal | undefined {
  const m = list[i] as Msg;
  const blocks = blocksOf(m);
  if (m.role === 'assistant') {
    const ids = blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    if (!ids.length) return undefined;
    const next = list[i + 1];
    const answered = new Set<string>();
    for (const b of next ? blocksOf(next) : []) {
      if (b.type !== 'tool_result') break;
      answered.add(String(b.tool_use_id));
    }
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length)
      return bad(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    return undefined;
  }
  const prev = list[i - 1];
  const offered = new Set(
    prev
      ? blocksOf(prev)
          .filter((b) => b.type === 'tool_use')
          .map((b) => String(b.id))
      : [],
  );
  for (const [j, b] of blocks.entries()) {
    if (b.type === 'tool_result' && !offered.has(String(b.tool_use_id)))
      return bad(
        `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
  }
  return undefined;
}

/** Blocks carrying `cache_control`, in the order the API renders the prompt: tools, system, messages. */
export function countBreakpoints(body: Record<string, unknown>): number {
  const all: Block[] = [
    ...((Array.isArray(body.tools) ? body.tools : []) as Block[]),
    ...((Array.isArray(body.system) ? body.system : []) as Block[]),
    ...((Array.isArray(body.messages) ? body.messages : []) as Msg[]).flatMap(blocksOf),
  ];
  return all.filter((b) => b.cache_control).length;
}

function checkBreakpoints(body: Record<string, unknown>): Refusal | undefined {
  const n = countBreakpoints(body);
  return n > MAX_BREAKPOINTS
    ? bad(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${n}.`)
    : undefined;
}

const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const MAGIC: Record<string, number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/gif': [0x47, 0x49, 0x46],
  'image/webp': [0x52, 0x49, 0x46, 0x46],
};

/**
 * Image blocks, in a message or inside a `tool_result` (the vision guide): a base64 source names one
 * of four media types, and its data must be a picture of that type; the API reads the bytes.
 */
function checkImages(b: Block, where: string): Refusal | undefined {
  if (b.type === 'tool_result' && Array.isArray(b.content)) {
    for (const [k, inner] of (b.content as Block[]).entries()) {
      if (inner.type !== 'text' && inner.type !== 'image')
        return bad(`${where}.tool_result.content.${k}.type: Input should be 'text' or 'image'`);
      const refused = checkImages(inner, `${where}.tool_result.content.${k}`);
      if (refused) return refused;
    }
    return undefined;
  }
  if (b.type !== 'image') return undefined;
  const source = (b.source ?? {}) as { type?: unknown; media_type?: unknown; data?: unknown };
  if (source.type !== 'base64') return undefined;
  const type = String(source.media_type);
  if (!MEDIA_TYPES.includes(type))
    return bad(
      `${where}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
    );
  const head = Buffer.from(String(source.data ?? ''), 'base64').subarray(0, 4);
  const actual = MEDIA_TYPES.find((t) => MAGIC[t]?.every((byte, n) => head[n] === byte));
  if (actual !== type)
    return bad(
      `${where}.image.source.base64.data: The image was specified using the ${type} media type, but the image appears to be ${actual ? `a ${actual}` : 'an unsupported'} image`,
    );
  return undefined;
}
