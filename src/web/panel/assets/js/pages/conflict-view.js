import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
import { t } from '../i18n.js';
import { configDiffView } from './config-diff.js';
import { state } from './prompts-state.js';

/**
 * R-F2: someone saved while this draft was open. The draft stays on screen untouched; this shows
 * who saved what meanwhile (base revision → current) and offers the two ways on.
 * @param {{ saveOver: () => void, discard: () => void }} actions
 */
export function conflictView(actions) {
  const conflict = state.conflict;
  if (!conflict) return null;
  const box = h('section', { class: 'conflict', role: 'alert', 'aria-labelledby': 'conflict-h' });
  const details = h('div', null, h('p', { class: 'muted' }, t('conflict.loading')));
  replace(
    box,
    h('h2', { id: 'conflict-h' }, t('conflict.title', { revision: conflict.currentRevision })),
    h('p', null, t('conflict.draft', { revision: state.baseRevision })),
    details,
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { type: 'button', class: 'primary', onclick: actions.saveOver },
        t('conflict.save-over', { revision: conflict.currentRevision }),
      ),
      h(
        'button',
        { type: 'button', onclick: actions.discard },
        t('conflict.discard', { revision: conflict.currentRevision }),
      ),
    ),
  );
  void (async () => {
    const [base, current] = await Promise.all([
      get(`/api/prompts/versions/${state.baseRevision}`),
      get(`/api/prompts/versions/${conflict.currentRevision}`),
    ]);
    replace(
      details,
      h(
        'p',
        { class: 'muted small' },
        t(current.who ? 'conflict.revision-by' : 'conflict.revision', {
          revision: current.revision,
          source: current.source,
          who: current.who ?? '',
          at: when(current.createdAt ?? current.at),
        }),
      ),
      configDiffView(base.config, current.config, t('conflict.same')),
    );
  })().catch((e) =>
    replace(details, h('p', { class: 'problem' }, t('conflict.load-failed', { error: e.message }))),
  );
  return box;
}
