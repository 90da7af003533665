import { get } from '../api.js';
import { h, replace, when } from '../dom.js';
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
  const details = h('div', null, h('p', { class: 'muted' }, 'Loading what changed…'));
  replace(
    box,
    h(
      'h2',
      { id: 'conflict-h' },
      `Not saved: revision ${conflict.currentRevision} was saved while you edited`,
    ),
    h(
      'p',
      null,
      `Your draft was based on revision ${state.baseRevision}. It is still below, exactly as you left it. What changed meanwhile:`,
    ),
    details,
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { type: 'button', class: 'primary', onclick: actions.saveOver },
        `Save my draft as the next version (replaces revision ${conflict.currentRevision})`,
      ),
      h(
        'button',
        { type: 'button', onclick: actions.discard },
        `Discard my draft and load revision ${conflict.currentRevision}`,
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
        `Revision ${current.revision}: ${current.source}${current.who ? ` by ${current.who}` : ''}, ${when(current.createdAt ?? current.at)}.`,
      ),
      configDiffView(base.config, current.config, 'Nothing differs in the settings themselves.'),
    );
  })().catch((e) =>
    replace(details, h('p', { class: 'problem' }, `Could not load the versions: ${e.message}`)),
  );
  return box;
}
