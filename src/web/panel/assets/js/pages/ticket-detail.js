import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { markdown } from '../markdown.js';
import { usd } from './cost-section.js';
import { deliveriesBody, details } from './deliveries-block.js';
import { facts, pauseButton, pauseLine, person, stateBadge } from './ticket-bits.js';
import { ticketNowSection } from './ticket-now.js';
import { trajectorySection } from './trajectory-view.js';

/**
 * One ticket: state, pause (who and when), threads, PRs, the cards in order with why each
 * attached, sessions with the prompt revisions they used, outbox deliveries and reports.
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function ticketDetailView(root, id) {
  const tk = await get(`/api/tickets/${encodeURIComponent(id)}`);
  const again = () => void ticketDetailView(root, id);
  replace(
    root,
    h('p', null, h('a', { href: '#/tickets' }, t('ticket.back'))),
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        null,
        h('h1', null, `${tk.id}: ${tk.title}`),
        h(
          'p',
          { class: 'meta' },
          stateBadge(tk.state),
          ' ',
          tk.pause ? pauseLine(tk.pause) : h('span', { class: 'muted' }, t('ticket.not-paused')),
          h(
            'span',
            { class: 'muted' },
            ' ',
            withPerson(
              t('ticket.meta', {
                source: tk.source,
                conversation: tk.conversation,
                requester: SLOT,
                opened: when(tk.createdAt),
              }),
              person(tk.owners?.requester),
            ),
          ),
        ),
      ),
      h('div', { class: 'actions' }, pauseButton(tk, again)),
    ),
    tk.statusText
      ? block(t('ticket.live-status'), h('div', { class: 'status-text' }, markdown(tk.statusText)))
      : null,
    // Issue 33: the call under way with its elapsed time, and the budget after every request.
    tk.status ? ticketNowSection(tk.id, tk.status) : null,
    // Issue 48: the executor's plan as it last set it.
    tk.plan?.steps?.length ? block(t('ticket.plan'), planList(tk.plan.steps)) : null,
    h(
      'div',
      { class: 'grid-2' },
      block(
        t('ticket.threads'),
        tk.threads.length
          ? [
              h('p', null, t('ticket.thread-count', { n: tk.threads.length })),
              details(
                h(
                  'ul',
                  { class: 'plain mono' },
                  tk.threads.map((/** @type {string} */ r) => h('li', null, r)),
                ),
              ),
            ]
          : none(),
      ),
      block(
        t('ticket.prs'),
        tk.pr ? prLink(tk.pr) : null,
        tk.prs.length
          ? h(
              'ul',
              { class: 'plain mono' },
              tk.prs.map((/** @type {string} */ r) => h('li', null, r)),
            )
          : tk.pr
            ? null
            : none(),
      ),
    ),
    block(
      t('ticket.cards'),
      tk.cards.length
        ? h(
            'ol',
            { class: 'cards' },
            tk.cards.map((/** @type {any} */ c) =>
              h(
                'li',
                { class: 'ticket-card' },
                h(
                  'div',
                  { class: 'card-head' },
                  c.card
                    ? h(
                        'span',
                        null,
                        withPerson(
                          t('ticket.card-line', {
                            source: c.card.source,
                            kind: c.card.kind,
                            author: SLOT,
                            at: when(c.at),
                          }),
                          person(c.card.author),
                        ),
                      )
                    : null,
                  h('code', { class: 'muted small card-id' }, ` ${c.cardId}`),
                ),
                h('div', { class: 'why' }, h('strong', null, `${t('ticket.why')} `), c.why),
                c.card ? h('blockquote', null, markdown(c.card.excerpt)) : null,
              ),
            ),
          )
        : none(),
    ),
    trajectorySection(tk.id),
    block(
      t('ticket.sessions'),
      tk.usage
        ? h('p', { class: 'meta', 'data-usage': 'ticket' }, t('ticket.usage', { usage: usageLine(tk.usage) }))
        : null,
      // Issue 33 item 5: what its model requests cost so far, at the provider's list price.
      h('p', { class: 'meta', 'data-cost': 'ticket' }, t('ticket.cost', { cost: usd(tk.costUsd ?? 0) })),
      tk.sessions.length
        ? h(
            'table',
            { class: 'table compact' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['session', 'revisions', 'transcript', 'usage'].map((x) =>
                  h('th', { scope: 'col' }, t(`ticket.col.${x}`)),
                ),
              ),
            ),
            h(
              'tbody',
              null,
              tk.sessions.map((/** @type {any} */ s) =>
                h(
                  'tr',
                  null,
                  h(
                    'td',
                    null,
                    h('code', null, s.id),
                    s.shared ? h('div', { class: 'meta' }, t('ticket.shared-session')) : null,
                  ),
                  h('td', null, facts(s.revisions)),
                  h('td', null, transcriptLine(s)),
                  h('td', null, usageLine(s.usage)),
                ),
              ),
            ),
          )
        : none(),
      tk.sessions.length
        ? details(
            tk.sessions.map((/** @type {any} */ s) =>
              h(
                'div',
                { class: 'last-turn' },
                h('h3', null, `${t('ticket.col.last-turn')} · ${s.id}`),
                facts(s.lastTurn),
              ),
            ),
          )
        : null,
    ),
    block(t('ticket.outbox'), deliveriesBody(tk, again)),
    screenshotsBlock(tk.screenshots ?? []),
    block(
      t('ticket.reports'),
      tk.reports.length
        ? h(
            'ol',
            { class: 'plain' },
            tk.reports.map((/** @type {any} */ r) =>
              h(
                'li',
                null,
                stateBadge(r.status ?? '?'),
                markdown(r.summary ?? ''),
                r.human_action
                  ? h(
                      'div',
                      { class: 'question' },
                      h('strong', null, `${t('ticket.question')} `),
                      markdown(r.human_action.question),
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

/**
 * Issue 15: the executor's screenshots, each with the commit it shows; the picture is served by
 * the API to the signed-in panel (its session cookie goes with the image request).
 * @param {any[]} shots
 */
function screenshotsBlock(shots) {
  const taken = shots.filter((s) => s.href);
  return block(
    t('ticket.screenshots'),
    taken.length
      ? h(
          'ul',
          { class: 'plain' },
          taken.map((s) =>
            h(
              'li',
              null,
              h('strong', null, s.when === 'before' ? t('ticket.shot-before') : t('ticket.shot-after')),
              ` ${s.url ?? ''} @ ${(s.commit ?? '').slice(0, 12)}${s.dirty ? ` ${t('ticket.shot-dirty')}` : ''} `,
              h(
                'a',
                { href: s.href, target: '_blank', rel: 'noopener' },
                h('img', { src: s.href, alt: s.when, width: '320' }),
              ),
            ),
          ),
        )
      : none(),
  );
}

/** Where a person goes in a translated line. */
const SLOT = '\u0000';
/** A translated line with `node` where its SLOT was. @param {string} line @param {Node} node */
const withPerson = (line, node) => line.split(SLOT).flatMap((part, i) => (i ? [node, part] : [part]));

/** @param {string} title @param {...unknown} children */
const block = (title, ...children) => h('section', { class: 'card' }, h('h2', null, title), ...children);
const none = () => h('p', { class: 'muted' }, t('ticket.none'));
const PLAN_MARK = { completed: '✓', in_progress: '▶', pending: '○' };

/** The plan's steps, each marked by its status. @param {{ step: string, status: string }[]} steps */
const planList = (steps) =>
  h(
    'ul',
    { class: 'plan' },
    steps.map((s) =>
      h(
        'li',
        { 'data-status': s.status },
        `${PLAN_MARK[/** @type {keyof typeof PLAN_MARK} */ (s.status)] ?? '○'} ${s.step}`,
      ),
    ),
  );

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
  const base = t('ticket.entries', { n: s.transcriptLength });
  if (!s.context) return base;
  const from = s.context.summarisedBefore
    ? t('ticket.summarised-before', { n: s.context.summarisedBefore })
    : '';
  return `${base} · ${t('ticket.compactions', { n: s.context.compactions })}${from}`;
}

/**
 * Model usage in one line (issue 12: prompt-cache economy): requests, prompt tokens and the share
 * the provider served from its cache.
 * @param {{ requests: number, promptTokens: number, completionTokens: number, cacheHitTokens: number } | undefined} u
 */
function usageLine(u) {
  if (!u?.requests) return t('ticket.no-requests');
  const share = u.promptTokens ? Math.round((100 * u.cacheHitTokens) / u.promptTokens) : 0;
  return t('ticket.usage-line', {
    requests: u.requests,
    prompt: u.promptTokens,
    cached: u.cacheHitTokens,
    share,
    completion: u.completionTokens,
  });
}
