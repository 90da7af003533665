import { gunzipSync } from 'node:zlib';

/** What an app gets from the confirm page: scopes, events and callbacks. */
export interface AppItems {
  scopes: string[];
  events: string[];
  callbacks: string[];
}

/**
 * The names the fake's platform catalog knows (Feishu's own is far larger): the confirm page
 * drops a name it does not know without a word, as the real one does, so a misspelt scope in
 * the bot's list shows up as a scope the created app lacks.
 */
const CATALOG = {
  scopes: new Set([
    'im:message',
    'im:message:readonly',
    'im:message:send_as_bot',
    'im:message:update',
    'im:message.p2p_msg:readonly',
    'im:message.group_at_msg:readonly',
    'im:message.group_msg',
    'im:message.reactions:write_only',
    'im:message.reactions:read',
    'im:resource',
    'im:chat',
    'im:chat:readonly',
    'contact:user.base:readonly',
    'contact:contact.base:readonly',
    'docx:document',
  ]),
  events: new Set(['im.message.receive_v1', 'im.message.reaction.created_v1', 'im.chat.member.bot.added_v1']),
  callbacks: new Set(['card.action.trigger', 'url.preview.get']),
};

/** The platform's default template for a PersonalAgent, kept unless `preset` is `false`. */
export const DEFAULT_TEMPLATE: AppItems = {
  scopes: ['im:message', 'im:chat:readonly', 'contact:user.base:readonly', 'docx:document'],
  events: ['im.message.receive_v1'],
  callbacks: [],
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (o: Obj, keys: string[]) => Object.keys(o).every((k) => keys.includes(k));
const names = (v: unknown): string[] | null =>
  v === undefined ? [] : Array.isArray(v) && v.every((s) => typeof s === 'string' && s) ? v : null;

/** The payload's shape as the SDK's `normalizeAddons` allows it; anything else is null. */
function readShape(a: unknown): { preset: boolean; items: AppItems } | null {
  if (!isObj(a) || !onlyKeys(a, ['preset', 'scopes', 'events', 'callbacks'])) return null;
  if (a.preset !== undefined && typeof a.preset !== 'boolean') return null;
  const scopes = a.scopes ?? {};
  const events = a.events ?? {};
  const callbacks = a.callbacks ?? {};
  if (!isObj(scopes) || !onlyKeys(scopes, ['tenant', 'user'])) return null;
  if (!isObj(events) || !onlyKeys(events, ['items'])) return null;
  const eventItems = events.items ?? {};
  if (!isObj(eventItems) || !onlyKeys(eventItems, ['tenant', 'user'])) return null;
  if (!isObj(callbacks) || !onlyKeys(callbacks, ['items'])) return null;
  const lists = [scopes.tenant, scopes.user, eventItems.tenant, eventItems.user, callbacks.items].map(names);
  if (lists.some((l) => l === null)) return null;
  const [st, su, et, eu, cb] = lists as string[][];
  return {
    preset: a.preset !== false,
    items: {
      scopes: [...(st ?? []), ...(su ?? [])],
      events: [...(et ?? []), ...(eu ?? [])],
      callbacks: cb ?? [],
    },
  };
}

/**
 * What the confirm page makes of the link's `addons` (the SDK: JSON → gzip → URL-safe base64
 * without padding): the default template plus the items, or only the items with `preset: false`.
 * A payload that does not decode or has the wrong shape is discarded whole (the SDK's comment:
 * "the confirm page silently discards the whole payload on any shape mismatch"); unknown names
 * are dropped.
 */
export function appItemsFrom(addons: string | null): AppItems & { discarded: boolean } {
  let shape: ReturnType<typeof readShape> = null;
  if (addons && /^[\w-]+$/.test(addons)) {
    try {
      shape = readShape(JSON.parse(gunzipSync(Buffer.from(addons, 'base64url')).toString('utf8')));
    } catch {}
  }
  const base = shape && !shape.preset ? { scopes: [], events: [], callbacks: [] } : DEFAULT_TEMPLATE;
  const add = shape?.items ?? { scopes: [], events: [], callbacks: [] };
  const merge = (a: string[], b: string[], known: Set<string>) => [
    ...new Set([...a, ...b.filter((n) => known.has(n))]),
  ];
  return {
    scopes: merge(base.scopes, add.scopes, CATALOG.scopes),
    events: merge(base.events, add.events, CATALOG.events),
    callbacks: merge(base.callbacks, add.callbacks, CATALOG.callbacks),
    discarded: addons !== null && shape === null,
  };
}
