import { get, request } from '../api.js';
import { h, notice, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { refusal } from './setup-refusal.js';

/** The languages a chat can be fixed to (`src/i18n/lang.ts`), and `auto`. */
const CHAT_LANGS = ['auto', 'en', 'zh-CN'];

/** A language's name in the panel's words (catalog keys are lowercase). @param {string} lang */
const langName = (lang) => t(`setup.chats.lang.${lang.toLowerCase()}`);

/**
 * One row per chat with a repository (set here, by `/repo` or `CHAT_REPOS`) or a fixed language.
 * Issue 31: the chat is bound to every repository shown, the first its default (the one set here).
 */
async function chatRows() {
  const [{ chats, fromEnv }, langs] = await Promise.all([get('/api/chat-repos'), get('/api/chat-languages')]);
  /** @type {Map<string, { chat: string, repo?: string, from?: string, lang?: string }>} */
  const rows = new Map();
  const row = (/** @type {string} */ chat) => rows.get(chat) ?? rows.set(chat, { chat }).get(chat);
  const join = (/** @type {(string | undefined)[]} */ parts) => parts.filter(Boolean).join(', ');
  for (const r of fromEnv) {
    const x = row(r.chat);
    Object.assign(x, { repo: join([x.repo, r.repo]), from: 'CHAT_REPOS' });
  }
  for (const r of chats) {
    const x = row(r.chat);
    Object.assign(x, { repo: join([r.repo, x.repo]), from: join([t('setup.chats.set-by.panel'), x.from]) });
  }
  for (const r of langs.chats) Object.assign(row(r.chat), { lang: r.lang });
  return [...rows.values()];
}

function rowsTable(/** @type {Awaited<ReturnType<typeof chatRows>>} */ rows) {
  if (!rows.length) return h('p', { class: 'muted small' }, t('setup.chats.empty'));
  const col = (/** @type {string} */ key) => h('th', null, t(key));
  return h(
    'table',
    { class: 'table compact' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        col('setup.chats.col.chat'),
        col('setup.chats.col.repo'),
        col('setup.chats.col.set-by'),
        col('setup.chats.col.lang'),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((r) =>
        h(
          'tr',
          { 'data-chat': r.chat },
          h('td', null, h('code', null, r.chat)),
          h('td', null, r.repo ?? '—'),
          h('td', { class: 'muted small' }, r.from ?? ''),
          h('td', { 'data-lang': r.lang ?? 'auto' }, langName(r.lang ?? 'auto')),
        ),
      ),
    ),
  );
}

const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {HTMLElement} */ control) =>
  h('div', { class: 'field grow' }, h('label', { for: id }, label), control);

/**
 * The "Chat repositories and languages" section (issue 16): each chat's default repository (also
 * `/repo owner/name` in chat) and its language (also `/lang`), each saved by its own button.
 */
export async function chatReposSection() {
  const list = h('div', { id: 'chat-repos-list' });
  const out = h('div', { 'aria-live': 'polite' });
  const draw = async () => replace(list, rowsTable(await chatRows()));
  const value = (/** @type {string} */ id) =>
    /** @type {HTMLInputElement} */ (document.getElementById(id)).value.trim();
  const saveRepo = h('button', { type: 'submit', class: 'primary' }, t('setup.chats.save-repo'));
  const saveLang = h('button', { type: 'button', id: 'chat-lang-save' }, t('setup.chats.save-lang'));
  const form = h(
    'form',
    { id: 'chat-repo-form' },
    h(
      'div',
      { class: 'row' },
      field(
        'chat-repo-chat',
        t('setup.chats.chat'),
        h('input', { id: 'chat-repo-chat', placeholder: t('setup.chats.chat-placeholder'), required: true }),
      ),
      field(
        'chat-repo-repo',
        t('setup.chats.repo'),
        h('input', { id: 'chat-repo-repo', placeholder: 'owner/name' }),
      ),
      field(
        'chat-lang',
        t('setup.chats.lang'),
        h(
          'select',
          { id: 'chat-lang' },
          CHAT_LANGS.map((l) => h('option', { value: l }, langName(l))),
        ),
      ),
    ),
    h('div', { class: 'actions' }, saveRepo, saveLang),
  );
  /** Saves one setting of the chat named in the form; `said` words the toast. */
  const save = async (
    /** @type {string} */ path,
    /** @type {Record<string, unknown>} */ body,
    /** @type {(b: any) => string} */ said,
  ) => {
    const chat = value('chat-repo-chat');
    if (!chat) return /** @type {HTMLFormElement} */ (form).reportValidity();
    const res = await request('PUT', `/api/${path}/${encodeURIComponent(chat)}`, body);
    if (!res.ok) return replace(out, notice('problem', refusal(res)));
    replace(out);
    toast(said(res.body));
    await draw();
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void save('chat-repos', { repo: value('chat-repo-repo') || null }, (b) =>
      b.repo
        ? t('setup.chats.repo-saved', { chat: b.chat, repo: b.repo })
        : t('setup.chats.repo-cleared', { chat: b.chat }),
    );
  });
  saveLang.addEventListener('click', () => {
    void save('chat-languages', { lang: value('chat-lang') }, (b) =>
      b.lang
        ? t('setup.chats.lang-saved', { chat: b.chat, lang: langName(b.lang) })
        : t('setup.chats.lang-cleared', { chat: b.chat }),
    );
  });
  await draw();
  return h(
    'section',
    { class: 'card', id: 'chat-repos' },
    h('h2', null, t('setup.chats.title')),
    h('p', { class: 'muted small' }, t('setup.chats.intro')),
    list,
    form,
    out,
  );
}
