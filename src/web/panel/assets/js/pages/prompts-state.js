import { get, request } from '../api.js';

/**
 * The prompt settings draft, kept for the life of the tab: switching pages never loses it, and a
 * failed or conflicting save leaves it exactly as typed (R-F2).
 */
export const state = {
  /** @type {any} the last `GET /api/prompts` */
  view: null,
  /** @type {{ team: Record<string, string>, overrides: Record<string, { text: string, base?: string }>, skills: { name: string, description?: string, text: string }[] } | null} */
  draft: null,
  /** The revision the draft was started from: the save's `baseRevision`. */
  baseRevision: 0,
  dirty: false,
  /** @type {{ key: string, code: string, message: string }[]} */
  problems: [],
  /** @type {null | { currentRevision: number }} */
  conflict: null,
  /** @type {Set<() => void>} */
  listeners: new Set(),
};

/** Tells the page (and the preview) the draft changed. */
export function changed() {
  state.dirty = true;
  for (const fn of state.listeners) fn();
}

/** @param {any} view */
export function draftFromView(view) {
  /** @type {Record<string, { text: string }>} */
  const overrides = {};
  for (const s of view.sections) if (s.override) overrides[s.key] = { text: s.override.text };
  return {
    team: { ...view.team },
    overrides,
    skills: view.skills.team.map((/** @type {any} */ s) => ({ ...s })),
  };
}

/** Loads the current settings; keeps a dirty draft unless `discard`. */
export async function load(discard = false) {
  state.view = await get('/api/prompts');
  if (!state.draft || !state.dirty || discard) {
    state.draft = draftFromView(state.view);
    state.baseRevision = state.view.revision;
    state.dirty = false;
    state.problems = [];
    state.conflict = null;
  }
}

/** The draft as `PUT /api/prompts` takes it. */
export function payload() {
  const d = state.draft;
  if (!d) throw new Error('no draft');
  const team = Object.fromEntries(Object.entries(d.team).filter(([, v]) => v.trim() !== ''));
  const skills = d.skills.map((s) => (s.description?.trim() ? s : { name: s.name, text: s.text }));
  return { baseRevision: state.baseRevision, team, overrides: d.overrides, skills };
}

/**
 * Saves the draft. 200: the draft becomes the new saved state. 422: the problems are kept for
 * display by key. 409: the conflict is kept; the draft is untouched.
 */
export async function save() {
  const res = await request('PUT', '/api/prompts', payload());
  state.problems = [];
  state.conflict = null;
  if (res.status === 200) {
    state.dirty = false;
    await load(true);
    return { ok: true, revision: res.body.revision };
  }
  if (res.status === 422) state.problems = res.body.errors ?? [];
  else if (res.status === 409) state.conflict = { currentRevision: res.body.currentRevision };
  else
    state.problems = [{ key: '(save)', code: String(res.status), message: res.body?.error ?? 'save failed' }];
  return { ok: false, status: res.status };
}

/** Problems whose key is `prefix` or lies under it. @param {string} prefix */
export const problemsAt = (prefix) =>
  state.problems.filter((p) => p.key === prefix || p.key.startsWith(`${prefix}.`));
