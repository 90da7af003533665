import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { facts, pauseButton, pauseLine, stateBadge } from './ticket-bits.js';

/**
 * One ticket: state, pause (who and when), threads, PRs, the cards in order with why each
 * attached, sessions with the prompt revisions they used, outbox deliveries and reports.
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function ticketDetailView(root, id) {
  const t = await get(`/api/tickets/${encodeURIComponent(id)}`);
  const again = () => void ticketDetailView(root, id);
  replace(
    root,
    h('p', null, h('a', { href: '#/tickets' }, '← All tickets')),
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        null,
        h('h1', null, `${t.id}: ${t.title}`),
        h(
          'p',
          { class: 'meta' },
          stateBadge(t.state),
          ' ',
          t.pause ? pauseLine(t.pause) : h('span', { class: 'muted' }, 'Not paused'),
          h(
            'span',
            { class: 'muted' },
            ` · from ${t.source} · ${t.conversation} · requested by ${t.owners?.requester?.name ?? t.owners?.requester?.id} · opened ${when(t.createdAt)}`,
          ),
        ),
      ),
      h('div', { class: 'actions' }, pauseButton(t, again)),
    ),
    t.statusText
      ? block(
          'Live status (as the status card and comment show it)',
          h('pre', { class: 'text status-text' }, t.statusText),
        )
      : null,
    h(
      'div',
      { class: 'grid-2' },
      block(
        'Threads',
        t.threads.length
          ? h(
              'ul',
              { class: 'plain mono' },
              t.threads.map((/** @type {string} */ r) => h('li', null, r)),
            )
          : none(),
      ),
      block(
        'Pull requests',
        t.pr ? prLink(t.pr) : null,
        t.prs.length
          ? h(
              'ul',
              { class: 'plain mono' },
              t.prs.map((/** @type {string} */ r) => h('li', null, r)),
            )
          : t.pr
            ? null
            : none(),
      ),
    ),
    block(
      'Cards, in the order they attached',
      t.cards.length
        ? h(
            'ol',
            { class: 'cards' },
            t.cards.map((/** @type {any} */ c) =>
              h(
                'li',
                { class: 'ticket-card' },
                h(
                  'div',
                  { class: 'card-head' },
                  h('code', null, c.cardId),
                  c.card
                    ? h(
                        'span',
                        { class: 'muted' },
                        ` ${c.card.source}/${c.card.kind} by ${c.card.author?.name ?? c.card.author?.id ?? '?'}, ${when(c.at)}`,
                      )
                    : null,
                ),
                h('div', { class: 'why' }, h('strong', null, 'Why: '), c.why),
                c.card ? h('blockquote', null, c.card.excerpt) : null,
              ),
            ),
          )
        : none(),
    ),
    block(
      'Sessions and the prompt revisions they used',
      t.usage ? h('p', { class: 'meta', 'data-usage': 'ticket' }, `Ticket: ${usageLine(t.usage)}`) : null,
      t.sessions.length
        ? h(
            'table',
            { class: 'table compact' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['Session', 'Revisions', 'Transcript', 'Model usage', 'Last turn'].map((x) =>
                  h('th', { scope: 'col' }, x),
                ),
              ),
            ),
            h(
              'tbody',
              null,
              t.sessions.map((/** @type {any} */ s) =>
                h(
                  'tr',
                  null,
                  h('td', null, h('code', null, s.id)),
                  h('td', null, facts(s.revisions)),
                  h('td', null, transcriptLine(s)),
                  h('td', null, usageLine(s.usage)),
                  h('td', null, facts(s.lastTurn)),
                ),
              ),
            ),
          )
        : none(),
    ),
    block(
      'Outbox deliveries',
      t.outbox.length
        ? h(
            'ol',
            { class: 'plain' },
            t.outbox.map((/** @type {any} */ o) =>
              h(
                'li',
                null,
                h('code', null, o.key),
                ' ',
                o.sent
                  ? h('span', { class: 'badge ok' }, 'sent')
                  : h('span', { class: 'badge quiet' }, 'pending'),
                o.sent ? facts(o.sent) : null,
              ),
            ),
          )
        : none(),
    ),
    block(
      'Reports',
      t.reports.length
        ? h(
            'ol',
            { class: 'plain' },
            t.reports.map((/** @type {any} */ r) =>
              h(
                'li',
                null,
                stateBadge(r.status ?? '?'),
                ' ',
                r.summary ?? '',
                r.human_action
                  ? h(
                      'div',
                      { class: 'question' },
                      h('strong', null, 'Question for people: '),
                      r.human_action.question,
                    )
                  : null,
                h('span', { class: 'muted small' }, ` ${when(r.at)}`),
              ),
            ),
          )
        : none(),
    ),
  );
}

/** @param {string} title @param {...unknown} children */
const block = (title, ...children) => h('section', { class: 'card' }, h('h2', null, title), ...children);
const none = () => h('p', { class: 'muted' }, 'None.');

/** Only http(s) links become links; anything else stays text. @param {any} pr */
function prLink(pr) {
  const label = `${pr.repo ?? ''}#${pr.number ?? ''}`;
  const safe = typeof pr.url === 'string' && /^https?:\/\//.test(pr.url);
  return h(
    'p',
    null,
    safe ? h('a', { href: pr.url, rel: 'noopener noreferrer', target: '_blank' }, label) : label,
  );
}

/**
 * The transcript's length and, once compacted (R-H2), how often and from which entry the model
 * still reads it whole (earlier entries are a "progress so far" summary).
 * @param {{ transcriptLength: number, context?: { compactions: number, summarisedBefore: number } | null }} s
 */
function transcriptLine(s) {
  const base = `${s.transcriptLength} entries`;
  if (!s.context) return base;
  const from = s.context.summarisedBefore ? `, summarised before #${s.context.summarisedBefore}` : '';
  return `${base} · ${s.context.compactions} compactions${from}`;
}

/**
 * Model usage in one line (issue 12: prompt-cache economy): requests, prompt tokens and the share
 * the provider served from its cache.
 * @param {{ requests: number, promptTokens: number, completionTokens: number, cacheHitTokens: number } | undefined} u
 */
function usageLine(u) {
  if (!u || !u.requests) return 'no model requests';
  const share = u.promptTokens ? Math.round((100 * u.cacheHitTokens) / u.promptTokens) : 0;
  return `${u.requests} requests · ${u.promptTokens} prompt tokens, ${u.cacheHitTokens} from cache (${share} %) · ${u.completionTokens} completion`;
}
