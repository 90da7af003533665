import { get, request } from '../api.js';
import { h, notice, replace, toast } from '../dom.js';
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
        h('h1', null, 'Policy'),
        h(
          'p',
          { class: 'muted small' },
          `Revision ${d.baseRevision}. The main session reads it at every request; it is the last section of its prompt.`,
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', class: 'primary', id: 'save-policy', onclick: () => void save(root) },
          'Save policy',
        ),
      ),
    ),
    conflictAt !== null
      ? notice(
          'problem',
          `Not saved: revision ${conflictAt} was saved meanwhile. Your draft is below, unchanged. `,
          h(
            'button',
            {
              type: 'button',
              onclick: () => {
                d.baseRevision = /** @type {number} */ (conflictAt);
                void save(root);
              },
            },
            'Save mine anyway',
          ),
          ' ',
          h(
            'button',
            { type: 'button', onclick: () => void reload().then(() => render(root)) },
            'Load the current policy',
          ),
        )
      : null,
    problems.length ? h('div', { class: 'notice problem' }, 'Not saved:', problemsList(problems)) : null,
    h(
      'fieldset',
      { class: 'card mode' },
      h('legend', null, 'Accept mode'),
      modeChoice(d, 'explicit', 'Explicit only', 'Tickets open only when someone explicitly asks the bot.'),
      modeChoice(
        d,
        'inferred',
        'Inferred too',
        'Also where an enabled rule below matches; the executor is then restricted to the matched rules.',
      ),
      problemsList(at('mode')),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'rules-h' },
      h('h2', { id: 'rules-h' }, 'Rules'),
      d.rules.length
        ? null
        : h(
            'p',
            { class: 'muted' },
            'No rules. In inferred mode nothing is inferred until a rule is enabled.',
          ),
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
        'Add a rule',
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
    const t = /** @type {HTMLInputElement} */ (e.target);
    r[f] = f === 'enabled' ? t.checked : t.value;
    touch();
  };
  return h(
    'fieldset',
    { class: 'rule', 'data-key': `rules.${i}` },
    h('legend', null, r.name || `Rule ${i + 1}`),
    h(
      'div',
      { class: 'row' },
      h(
        'div',
        { class: 'field' },
        h('label', { for: `${id}-id` }, 'Id'),
        h('input', { id: `${id}-id`, value: r.id, oninput: bind('id'), placeholder: 'e.g. flaky-tests' }),
      ),
      h(
        'div',
        { class: 'field grow' },
        h('label', { for: `${id}-name` }, 'Name'),
        h('input', { id: `${id}-name`, value: r.name, oninput: bind('name') }),
      ),
      h(
        'div',
        { class: 'field check' },
        h('input', { type: 'checkbox', id: `${id}-enabled`, checked: r.enabled, onchange: bind('enabled') }),
        h('label', { for: `${id}-enabled` }, 'Enabled'),
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: `${id}-instruction` }, 'Instruction (one line)'),
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
      `Remove rule ${r.name || i + 1}`,
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
    toast(`Policy saved as revision ${res.body.revision}`);
    await reload();
  } else if (res.status === 409) conflictAt = res.body.currentRevision;
  else if (res.status === 422) problems = res.body.errors ?? [];
  else problems = [{ key: '(save)', code: String(res.status), message: res.body?.error ?? 'save failed' }];
  render(root);
}
