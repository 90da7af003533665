import { get, request, whoAmI } from '../api.js';
import { h, replace, when, withLinks } from '../dom.js';
import { t } from '../i18n.js';
import { pauseButton, pauseLine, stateBadge } from './ticket-bits.js';

const CHAT = 'panel';
/** Reaction names as the outbox sends them, shown as an emoji and a word. */
const EMOJI = { eyes: ['👀', 'seen'], thumbsup: ['👍', 'ok'], done: ['✅', 'done'], DONE: ['✅', 'done'] };
/** @param {string} emoji */
const reactionLabel = (emoji) => {
  const known = EMOJI[/** @type {keyof typeof EMOJI} */ (emoji)];
  return known ? `${known[0]} ${t(`try.reaction.${known[1]}`)}` : ` ${emoji}`;
};

/** @type {null | { id: string, text: string }} */
let replyTo = null;

/**
 * "Try it": a local chat through the same ingest path as Feishu. Messages go out as a local
 * person; the conversation is polled and shows the bot's reactions, its replies threaded under
 * the message they answer, questions (human_action), and the tickets opened here with Pause/Resume.
 */
export async function tryItPage(/** @type {HTMLElement} */ root) {
  const log = h('div', {
    class: 'chat-log',
    role: 'log',
    'aria-label': t('try.conversation'),
    'aria-live': 'polite',
  });
  const side = h('aside', { class: 'chat-side', 'aria-label': t('try.tickets') });
  const replying = h('div', { class: 'replying' });
  const input = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      id: 'chat-input',
      rows: 3,
      placeholder: t('try.placeholder'),
    })
  );
  const send = async () => {
    const text = input.value.trim();
    if (!text) return;
    const res = await request('POST', '/api/local/messages', {
      text,
      chat: CHAT,
      ...(replyTo ? { replyTo: replyTo.id } : {}),
    });
    if (res.ok) {
      input.value = '';
      replyTo = null;
      drawReplying();
      await poll();
    } else
      replace(
        replying,
        h(
          'span',
          { class: 'problem' },
          t('try.not-sent', { status: res.status, error: res.body?.error ?? '' }),
        ),
      );
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  });
  const drawReplying = () =>
    replace(
      replying,
      replyTo
        ? [
            h('span', null, `${t('try.replying-to')} `, h('q', null, replyTo.text.slice(0, 120))),
            h(
              'button',
              {
                type: 'button',
                class: 'quiet',
                onclick: () => {
                  replyTo = null;
                  drawReplying();
                  input.focus();
                },
              },
              t('try.cancel-reply'),
            ),
          ]
        : null,
    );
  const startReply = (/** @type {{ id: string, text: string }} */ m) => {
    replyTo = m;
    drawReplying();
    input.focus();
  };
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        null,
        h('h1', null, t('page.try')),
        h('p', { class: 'muted small' }, t('try.hint', { who: whoAmI() || 'admin' })),
      ),
    ),
    h(
      'div',
      { class: 'chat' },
      h(
        'div',
        { class: 'chat-main' },
        log,
        h(
          'form',
          {
            class: 'composer',
            onsubmit: (/** @type {Event} */ e) => {
              e.preventDefault();
              void send();
            },
          },
          replying,
          h('label', { for: 'chat-input', class: 'sr-only' }, t('try.message')),
          input,
          h(
            'div',
            { class: 'row end' },
            h('span', { class: 'muted small' }, t('try.keys')),
            h('button', { type: 'submit', class: 'primary' }, t('try.send')),
          ),
        ),
      ),
      side,
    ),
  );
  let last = '';
  const poll = async () => {
    const convo = await get(`/api/local/messages?chat=${CHAT}`);
    const questions = await questionsOf(convo.tickets);
    const key = JSON.stringify([convo, [...questions]]);
    if (key === last) return;
    last = key;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    replace(log, thread(convo.items, questions, startReply));
    if (atBottom) log.scrollTop = log.scrollHeight;
    replace(
      side,
      h('h2', null, t('try.tickets')),
      convo.tickets.length
        ? convo.tickets.map((/** @type {any} */ tk) =>
            h(
              'div',
              { class: 'side-ticket', 'data-ticket': tk.id },
              h(
                'div',
                { class: 'side-head' },
                h('a', { href: `#/tickets/${encodeURIComponent(tk.id)}` }, tk.id),
                stateBadge(tk.state),
              ),
              h('div', null, tk.title),
              tk.pause ? pauseLine(tk.pause) : null,
              pauseButton(tk, () => void poll()),
            ),
          )
        : h('p', { class: 'muted' }, t('try.none-yet')),
    );
  };
  await poll();
  const timer = setInterval(() => {
    if (!log.isConnected) clearInterval(timer);
    else void poll().catch(() => clearInterval(timer));
  }, 1000);
}

/** The human_action questions of the chat's tickets, to mark the replies that ask them. @param {any[]} tickets */
async function questionsOf(tickets) {
  const details = await Promise.all(
    tickets.slice(0, 10).map((tk) => get(`/api/tickets/${encodeURIComponent(tk.id)}`).catch(() => null)),
  );
  return new Set(
    details.flatMap((d) =>
      (d?.reports ?? []).map((/** @type {any} */ r) => r.human_action?.question).filter(Boolean),
    ),
  );
}

/**
 * People's messages in order, each with its reactions and the replies under it (nested).
 * @param {any[]} items @param {Set<string>} questions @param {(m: any) => void} startReply
 */
function thread(items, questions, startReply) {
  const messages = items.filter((i) => i.type === 'message');
  if (!messages.length) return h('p', { class: 'muted empty' }, t('try.empty'));
  const ids = new Set(messages.map((m) => m.id));
  const children = new Map();
  for (const m of messages) {
    const parent = m.replyTo && ids.has(m.replyTo) ? m.replyTo : null;
    children.set(parent, [...(children.get(parent) ?? []), m]);
  }
  const reactions = (/** @type {string} */ id) =>
    items.filter((i) => i.type === 'reaction' && i.messageId === id);
  const one = (/** @type {any} */ m) =>
    h(
      'li',
      { class: `msg from-${m.from}`, 'data-message': m.id },
      h(
        'div',
        { class: 'bubble' },
        h(
          'div',
          { class: 'msg-head' },
          h('strong', null, m.from === 'bot' ? 'Switchyard' : m.who),
          h('span', { class: 'muted small' }, ` ${when(m.at)}`),
          m.tickets.length ? h('span', { class: 'badge quiet' }, m.tickets.join(', ')) : null,
        ),
        questions.has(m.text) ? h('div', { class: 'badge warn' }, t('try.question')) : null,
        h('div', { class: 'msg-text' }, m.from === 'bot' ? withLinks(m.text) : m.text),
        h(
          'div',
          { class: 'msg-foot' },
          reactions(m.id).map((r) =>
            h(
              'span',
              { class: 'reaction', title: t('try.reacted', { emoji: r.emoji }) },
              reactionLabel(r.emoji),
            ),
          ),
          h('button', { type: 'button', class: 'link', onclick: () => startReply(m) }, t('try.reply')),
        ),
      ),
      children.has(m.id) ? h('ul', { class: 'replies' }, children.get(m.id).map(one)) : null,
    );
  return h('ul', { class: 'thread' }, (children.get(null) ?? []).map(one));
}
