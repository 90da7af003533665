import { createHash } from 'node:crypto';

/**
 * The key a recorded request is found by (issue 29, `--record` / `--replay`): the SHA-256 of the
 * request's canonical form — the method, the path and the whole JSON body (model, system, messages,
 * tools, tool choice, stream, token cap, thinking: every field the product sends, tool-call ids
 * included, since they come from the model's recorded answers), objects with their keys sorted,
 * and what one task run made up rather than the conversation replaced by names:
 *
 * - the run's own values (`Volatile`): its temporary folder, loopback URLs, chat and key prefix;
 * - identifiers made on the way (`MADE_UP`), numbered by first appearance in the request;
 * - the times test runners print.
 *
 * Nothing else is left out: a request that differs in anything else is a different request, and
 * the replay says where. The names' values (`bindings`) let a replay put this run's values into
 * a recorded answer where the recording run's stood.
 */

/** A value one task run made up, and the name that stands for it in the canonical form. */
export interface Volatile {
  value: string;
  name: string;
}

export interface CanonicalRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface CanonicalForm {
  request: CanonicalRequest;
  /** Each name put in (`<card-1>`, `<run-dir>`) and the value it stands for in this request. */
  bindings: Record<string, string>;
}

/**
 * Identifiers numbered by first appearance (the same conversation with other ids reads the
 * same): card ids (from random delivery ids), Feishu message, chat and user ids, UUIDs, commit
 * hashes (a commit's time is in its hash), and GitHub's issue, pull-request and comment numbers
 * (`#12`, `/pull/12`, `issuecomment-7`: which of the bot's comment and its PR the loopback GitHub
 * numbers first depends on timing). Times are one word each, never bound.
 */
const MADE_UP: { kind: string; re: RegExp; numbered: boolean }[] = [
  { kind: 'card', re: /\b(?:github|feishu)-[0-9a-f]{16,}\b/g, numbered: true },
  { kind: 'feishu-id', re: /\b(?:om|oc|ou|on)_\w+/g, numbered: true },
  { kind: 'uuid', re: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, numbered: true },
  // Digits only too: a short hash is all digits often enough (one in 300 at 12 characters).
  { kind: 'sha', re: /\b(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/g, numbered: true },
  { kind: 'gh-number', re: /(?:#|\/pull\/|\/issues\/|\bissuecomment-)\d+\b/g, numbered: true },
  { kind: 'ms', re: /(?<=\bduration_ms:? )\d+(?:\.\d+)?/g, numbered: false },
  { kind: 'seconds', re: /\b\d+\.\d+s\b/g, numbered: false },
];

/** The request as it is hashed and compared, and what its names stand for. */
export function canonicalForm(
  method: string,
  path: string,
  raw: string,
  volatile: readonly Volatile[],
): CanonicalForm {
  // Longest first, so a value that contains another is replaced whole.
  const subs = [...volatile].filter((v) => v.value).sort((a, b) => b.value.length - a.value.length);
  const bindings: Record<string, string> = {};
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  const nameOf = (kind: string, value: string) => {
    const key = `${kind}\0${value}`;
    let name = names.get(key);
    if (!name) {
      const n = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, n);
      name = `<${kind}-${n}>`;
      names.set(key, name);
      bindings[name] = value;
    }
    return name;
  };
  const own = (s: string) =>
    subs.reduce((t, v) => {
      if (!t.includes(v.value)) return t;
      bindings[`<${v.name}>`] = v.value;
      return t.split(v.value).join(`<${v.name}>`);
    }, s);
  const clean = (s: string) =>
    MADE_UP.reduce(
      (t, p) => t.replace(p.re, (m) => (p.numbered ? nameOf(p.kind, m) : `<${p.kind}>`)),
      own(s),
    );
  const request = { method, path: clean(path), body: canonicalValue(parsed(raw), clean) };
  return { request, bindings };
}

function parsed(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function canonicalValue(v: unknown, clean: (s: string) => string): unknown {
  if (typeof v === 'string') return clean(v);
  if (Array.isArray(v)) return v.map((x) => canonicalValue(x, clean));
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonicalValue((v as Record<string, unknown>)[k], clean)]),
    );
  return v;
}

/** The hex SHA-256 of a canonical request. */
export function requestHash(c: CanonicalRequest): string {
  return createHash('sha256').update(JSON.stringify(c)).digest('hex');
}
