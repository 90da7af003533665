import { get, request } from '../api.js';
import { h, notice, replace, toast } from '../dom.js';

/** The "Chat repositories" section: each chat's default repository (also `/repo owner/name` in chat). */
export async function chatReposSection() {
  const list = h('div', { id: 'chat-repos-list' });
  const out = h('div', { 'aria-live': 'polite' });
  const draw = async () => {
    const { chats, fromEnv } = await get('/api/chat-repos');
    const rows = [
      ...chats.map((/** @type {any} */ r) => ({ ...r, from: 'panel or /repo' })),
      ...fromEnv
        .filter((/** @type {any} */ e) => !chats.some((/** @type {any} */ r) => r.chat === e.chat))
        .map((/** @type {any} */ r) => ({ ...r, from: 'CHAT_REPOS' })),
    ];
    replace(
      list,
      rows.length
        ? h(
            'table',
            { class: 'table compact' },
            h(
              'thead',
              null,
              h('tr', null, h('th', null, 'Chat'), h('th', null, 'Repository'), h('th', null, 'Set by')),
            ),
            h(
              'tbody',
              null,
              rows.map((r) =>
                h(
                  'tr',
                  { 'data-chat': r.chat },
                  h('td', null, h('code', null, r.chat)),
                  h('td', null, r.repo),
                  h('td', { class: 'muted small' }, r.from),
                ),
              ),
            ),
          )
        : h('p', { class: 'muted small' }, 'No chat has a default repository yet.'),
    );
  };
  const field = (
    /** @type {string} */ id,
    /** @type {string} */ label,
    /** @type {Record<string, unknown>} */ attrs,
  ) => h('div', { class: 'field grow' }, h('label', { for: id }, label), h('input', { id, ...attrs }));
  const form = h(
    'form',
    { id: 'chat-repo-form' },
    h(
      'div',
      { class: 'row' },
      field('chat-repo-chat', 'Chat id', { placeholder: 'oc_… or a local chat', required: true }),
      field('chat-repo-repo', 'Default repository (empty: none)', { placeholder: 'owner/name' }),
    ),
    h('button', { type: 'submit', class: 'primary' }, 'Save chat repository'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = (/** @type {string} */ id) =>
      /** @type {HTMLInputElement} */ (document.getElementById(id)).value.trim();
    const chat = value('chat-repo-chat');
    const res = await request('PUT', `/api/chat-repos/${encodeURIComponent(chat)}`, {
      repo: value('chat-repo-repo') || null,
    });
    if (!res.ok)
      return replace(
        out,
        notice('problem', res.body?.errors?.[0]?.message ?? res.body?.error ?? `answered ${res.status}`),
      );
    replace(out);
    toast(res.body.repo ? `${chat} works in ${res.body.repo}` : `${chat} has no default repository`);
    await draw();
  });
  await draw();
  return h(
    'section',
    { class: 'card', id: 'chat-repos' },
    h('h2', null, 'Chat repositories'),
    h(
      'p',
      { class: 'muted small' },
      'Where a chat’s requests work when they name no repository. In the chat, /repo owner/name does the same (people allowed to steer the bot there only).',
    ),
    list,
    form,
    out,
  );
}
