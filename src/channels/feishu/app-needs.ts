/**
 * What the bot needs from a Feishu app, in one list (issue 33 item 6): the scopes its calls use,
 * the event and the callback it handles (`dispatcher.ts` registers exactly these). The panel's
 * "create by scanning" flow presets them on Feishu's confirm page, and docs/feishu-setup.md
 * (both languages) lists them for those who set the app up by hand — a test compares the two.
 */
export const FEISHU_SCOPES = [
  {
    scope: 'im:message.p2p_msg:readonly',
    why: 'receive direct messages sent to the bot (im.message.receive_v1 in direct chats)',
  },
  {
    scope: 'im:message.group_at_msg:readonly',
    why: 'receive group messages that @ the bot: the requests',
  },
  {
    scope: 'im:message.group_msg',
    why: 'replies and thread messages without an @ (pause, resume, answers) and a group’s history; approved by a tenant admin',
  },
  {
    scope: 'im:message:send_as_bot',
    why: 'reply, send and update the status card',
  },
  {
    scope: 'im:message.reactions:write_only',
    why: 'the “seen” reaction within a second of a request',
  },
  {
    scope: 'im:message:readonly',
    why: 'executors read the replied-to message, the thread, a merged forward',
  },
  {
    scope: 'contact:contact.base:readonly',
    why: 'look people up in the contacts API (contact-name.ts), for names on ticket pages',
  },
  {
    scope: 'contact:user.base:readonly',
    why: 'read a person’s name, shown on ticket pages instead of the open_id',
  },
] as const;

/** App-identity events the bot subscribes to (R-A1). */
export const FEISHU_EVENTS = ['im.message.receive_v1'] as const;

/** Callbacks: a button pressed on the bot's status card. */
export const FEISHU_CALLBACKS = ['card.action.trigger'] as const;

/**
 * The `addons` of Feishu's one-click app registration (the pinned SDK's `AppAddons`): only these
 * items, on the minimal base (`preset: false`: the bot capability and nothing else), so the app
 * gets what the bot uses and no more.
 */
export function feishuAddons() {
  return {
    preset: false,
    scopes: { tenant: FEISHU_SCOPES.map((s) => s.scope) },
    events: { items: { tenant: [...FEISHU_EVENTS] } },
    callbacks: { items: [...FEISHU_CALLBACKS] },
  };
}
