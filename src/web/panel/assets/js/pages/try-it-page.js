import { get, request, whoAmI } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { markdown } from '../markdown.js';
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
  /** Sends the typed message, or `answer` (a choice's button) as a reply to its question. */
  const send = async (/** @type {{ text: string, replyTo: string } | undefined} */ answer) => {
    const text = answer ? answer.text : input.value.trim();
    if (!text) return;
    const to = answer ? answer.replyTo : replyTo?.id;
    const res = await request('POST', '/api/local/messages', {
      text,
      chat: CHAT,
      ...(to ? { replyTo: to } : {}),
    });
    if (res.ok) {
      if (!answer) {
        input.value = '';
        replyTo = null;
      }
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
      void send(undefined);
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
  const examples = h('div', { class: 'examples' });
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
              void send(undefined);
            },
          },
          examples,
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
  const fill = (/** @type {string} */ text) => {
    input.value = text;
    input.focus();
  };
  replace(examples, exampleButtons((await get('/api/local/examples')).examples ?? [], fill));
  let last = '';
  const poll = async () => {
    const convo = await get(`/api/local/messages?chat=${CHAT}`);
    const { questions, prs } = await questionsOf(convo.tickets);
    const key = JSON.stringify([convo, [...questions], [...prs]]);
    if (key === last) return;
    last = key;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    const answer = (/** @type {string} */ text, /** @type {string} */ to) => void send({ text, replyTo: to });
    replace(log, thread(convo.items, questions, { startReply, answer }));
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
              prs.get(tk.id) ? ticketPr(prs.get(tk.id)) : null,
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

/**
 * The human_action questions of the chat's tickets with their choices, to mark the replies that
 * ask them and offer the choices as buttons; and each ticket's draft PR.
 * @param {any[]} tickets
 */
async function questionsOf(tickets) {
  const details = await Promise.all(
    tickets.slice(0, 10).map((tk) => get(`/api/tickets/${encodeURIComponent(tk.id)}`).catch(() => null)),
  );
  /** @type {Map<string, string[]>} */
  const questions = new Map();
  /** @type {Map<string, any>} */
  const prs = new Map();
  for (const d of details) {
    if (!d) continue;
    if (d.pr) prs.set(d.id, d.pr);
    for (const r of d.reports ?? [])
      if (r.human_action?.question) questions.set(r.human_action.question, r.human_action.choices ?? []);
  }
  return { questions, prs };
}

/**
 * The ticket's PR as a link (http(s) only; anything else stays text). Not called a draft: the
 * ticket's record does not follow the PR's state, and a ticket that marked it ready is common.
 * @param {any} pr
 */
function ticketPr(pr) {
  const label = t('try.pr', { pr: `${pr.repo ?? ''}#${pr.number ?? ''}` });
  const safe = typeof pr.url === 'string' && /^https?:\/\//.test(pr.url);
  return h(
    'div',
    { class: 'draft-pr' },
    safe ? h('a', { href: pr.url, target: '_blank', rel: 'noopener noreferrer' }, label) : label,
  );
}

/**
 * The example requests the server offers (the demo's, issue 49) as buttons: a click puts one in
 * the message box, to send as it is or change first. None: nothing is drawn.
 * @param {string[]} examples @param {(text: string) => void} fill
 */
function exampleButtons(examples, fill) {
  if (!examples.length) return null;
  return h(
    'div',
    { class: 'choices', role: 'group', 'aria-label': t('try.examples') },
    h('span', { class: 'muted small' }, t('try.examples')),
    examples.map((e) => h('button', { type: 'button', class: 'choice', onclick: () => fill(e) }, e)),
  );
}

/**
 * A question's choices as buttons, like Feishu's card: a click sends the choice as a reply to the
 * question, the same message a person would type. Once someone answered, they are not offered.
 * @param {string[]} choices @param {any} m @param {boolean} answered @param {(text: string, to: string) => void} answer
 */
function choiceButtons(choices, m, answered, answer) {
  if (!choices.length || answered) return null;
  return h(
    'div',
    { class: 'choices', role: 'group', 'aria-label': t('try.choices') },
    choices.map((c) => h('button', { type: 'button', class: 'choice', onclick: () => answer(c, m.id) }, c)),
  );
}

/**
 * People's messages in order, each with its reactions and the replies under it (nested); the
 * bot's Markdown rendered (safely: elements, never HTML), a question's choices as buttons.
 * @param {any[]} items @param {Map<string, string[]>} questions
 * @param {{ startReply: (m: any) => void, answer: (text: string, to: string) => void }} act
 */
function thread(items, questions, { startReply, answer }) {
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
        h('div', { class: 'msg-text' }, m.from === 'bot' ? markdown(m.text) : m.text),
        m.from === 'bot' && questions.has(m.text)
          ? choiceButtons(
              questions.get(m.text) ?? [],
              m,
              (children.get(m.id) ?? []).some((/** @type {any} */ c) => c.from === 'person'),
              answer,
            )
          : null,
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
