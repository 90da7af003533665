import { get, request } from '../api.js';
import { h, notice, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { problemsList } from './problems-list.js';

/** The policy draft survives page switches, like the prompts draft. */
let draft = /** @type {null | { baseRevision: number, mode: string, rules: any[] }} */ (null);
let dirty = false;
/** @type {{ key: string, code: string, message: string }[]} */
let problems = [];
/** @type {null | number} */
let conflictAt = null;

/** Accept mode and rules (R-B8, R-E9), versioned: a stale save is refused and the draft kept. */
export async function policyPage(/** @type {HTMLElement} */ root) {
  if (!draft || !dirty) await reload();
  render(root);
}

async function reload() {
  const p = await get('/api/policy');
  draft = {
    baseRevision: p.revision,
    mode: p.mode,
    rules: p.rules.map((/** @type {any} */ r) => ({ ...r })),
  };
  dirty = false;
  problems = [];
  conflictAt = null;
}

const touch = () => {
  dirty = true;
};

/** @param {HTMLElement} root */
function render(root) {
  if (!draft) return;
  const d = draft;
  const at = (/** @type {string} */ key) =>
    problems.filter((p) => p.key === key || p.key.startsWith(`${key}.`));
  replace(
    root,
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        null,
        h('h1', null, t('page.policy')),
        h('p', { class: 'muted small' }, t('policy.hint', { revision: d.baseRevision })),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', class: 'primary', id: 'save-policy', onclick: () => void save(root) },
          t('policy.save'),
        ),
      ),
    ),
    conflictAt !== null
      ? notice(
          'problem',
          `${t('policy.conflict', { revision: conflictAt })} `,
          h(
            'button',
            {
              type: 'button',
              onclick: () => {
                d.baseRevision = /** @type {number} */ (conflictAt);
                void save(root);
              },
            },
            t('policy.save-anyway'),
          ),
          ' ',
          h(
            'button',
            { type: 'button', onclick: () => void reload().then(() => render(root)) },
            t('policy.load-current'),
          ),
        )
      : null,
    problems.length
      ? h('div', { class: 'notice problem' }, t('policy.not-saved'), problemsList(problems))
      : null,
    h(
      'fieldset',
      { class: 'card mode' },
      h('legend', null, t('policy.mode')),
      modeChoice(d, 'explicit', t('policy.explicit'), t('policy.explicit-help')),
      modeChoice(d, 'inferred', t('policy.inferred'), t('policy.inferred-help')),
      problemsList(at('mode')),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'rules-h' },
      h('h2', { id: 'rules-h' }, t('policy.rules')),
      d.rules.length ? null : h('p', { class: 'muted' }, t('policy.no-rules')),
      d.rules.map((r, i) => ruleFields(root, r, i, at)),
      problemsList(at('rules').filter((p) => !/^rules\.\d+/.test(p.key))),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            d.rules.push({ id: '', name: '', instruction: '', enabled: true });
            touch();
            render(root);
            document.getElementById(`rule-${d.rules.length - 1}-id`)?.focus();
          },
        },
        t('policy.add-rule'),
      ),
    ),
  );
}

/** @param {any} d @param {string} value @param {string} label @param {string} help */
function modeChoice(d, value, label, help) {
  const id = `mode-${value}`;
  return h(
    'div',
    { class: 'choice' },
    h('input', {
      type: 'radio',
      name: 'mode',
      id,
      value,
      checked: d.mode === value,
      onchange: () => {
        d.mode = value;
        touch();
      },
    }),
    h('label', { for: id }, h('strong', null, label), h('span', { class: 'muted' }, ` — ${help}`)),
  );
}

/** @param {HTMLElement} root @param {any} r @param {number} i @param {(key: string) => any[]} at */
function ruleFields(root, r, i, at) {
  const id = `rule-${i}`;
  const bind = (/** @type {string} */ f) => (/** @type {Event} */ e) => {
    const input = /** @type {HTMLInputElement} */ (e.target);
    r[f] = f === 'enabled' ? input.checked : input.value;
    touch();
  };
  return h(
    'fieldset',
    { class: 'rule', 'data-key': `rules.${i}` },
    h('legend', null, r.name || t('policy.rule', { n: i + 1 })),
    h(
      'div',
      { class: 'row' },
      h(
        'div',
        { class: 'field' },
        h('label', { for: `${id}-id` }, t('policy.rule-id')),
        h('input', {
          id: `${id}-id`,
          value: r.id,
          oninput: bind('id'),
          placeholder: t('policy.rule-id-example'),
        }),
      ),
      h(
        'div',
        { class: 'field grow' },
        h('label', { for: `${id}-name` }, t('policy.rule-name')),
        h('input', { id: `${id}-name`, value: r.name, oninput: bind('name') }),
      ),
      h(
        'div',
        { class: 'field check' },
        h('input', { type: 'checkbox', id: `${id}-enabled`, checked: r.enabled, onchange: bind('enabled') }),
        h('label', { for: `${id}-enabled` }, t('policy.rule-enabled')),
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: `${id}-instruction` }, t('policy.rule-instruction')),
      h('input', { id: `${id}-instruction`, value: r.instruction, oninput: bind('instruction') }),
    ),
    problemsList(at(`rules.${i}`)),
    h(
      'button',
      {
        type: 'button',
        class: 'quiet',
        onclick: () => {
          draft?.rules.splice(i, 1);
          touch();
          render(root);
        },
      },
      t('policy.remove-rule', { name: r.name || i + 1 }),
    ),
  );
}

/** @param {HTMLElement} root */
async function save(root) {
  if (!draft) return;
  const res = await request('PUT', '/api/policy', draft);
  problems = [];
  conflictAt = null;
  if (res.ok) {
    toast(t('policy.saved', { revision: res.body.revision }));
    await reload();
  } else if (res.status === 409) conflictAt = res.body.currentRevision;
  else if (res.status === 422) problems = res.body.errors ?? [];
  else
    problems = [
      { key: '(save)', code: String(res.status), message: res.body?.error ?? t('policy.save-failed') },
    ];
  render(root);
}
