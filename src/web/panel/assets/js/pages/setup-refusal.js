import { t, tOr } from '../i18n.js';

/**
 * A refused Setup request in the panel's words (issue 16): the catalog's `setup.error.<code>` for
 * a code it knows (a field's, else the answer's), else the server's message, else the status.
 * @param {{ status: number, body: any }} res
 */
export function refusal(res) {
  const first = res.body?.errors?.[0];
  const code = first?.code ?? res.body?.code;
  const said = first?.message ?? res.body?.error ?? t('setup.answered', { status: res.status });
  return code ? tOr(`setup.error.${String(code).replaceAll('_', '-')}`, said) : said;
}
