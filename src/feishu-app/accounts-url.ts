/** Feishu's and Lark's accounts hosts, where app registration lives (not the Open API's host). */
const FEISHU_ACCOUNTS = 'https://accounts.feishu.cn';
const LARK_ACCOUNTS = 'https://accounts.larksuite.com';

const ACCOUNTS_OF: Record<string, string> = {
  'open.feishu.cn': FEISHU_ACCOUNTS,
  'open.larksuite.com': LARK_ACCOUNTS,
};

/**
 * The accounts base URL for an Open API base (`FEISHU_DOMAIN`), as the pinned SDK maps them:
 * `open.feishu.cn` → `accounts.feishu.cn`, `open.larksuite.com` → `accounts.larksuite.com`; any
 * other host (a private deployment, a test's fake) serves both at its own origin.
 */
export function accountsUrlOf(feishuDomain: string): string {
  const u = new URL(feishuDomain);
  return ACCOUNTS_OF[u.hostname.toLowerCase()] ?? u.origin;
}

/**
 * Where to go on polling when Feishu says the person who scanned is on a Lark tenant (the SDK
 * switches once, from Feishu's accounts host to Lark's); any other base stays where it is.
 */
export function larkAccountsUrlFor(base: string): string {
  return base === FEISHU_ACCOUNTS ? LARK_ACCOUNTS : base;
}

/** The brand a registration polled at `base` belongs to, when Feishu did not say. */
export const brandOfBase = (base: string): 'feishu' | 'lark' => (base === LARK_ACCOUNTS ? 'lark' : 'feishu');

/** Lark's Open API base, the `FEISHU_DOMAIN` of an app made on a Lark tenant. */
export const LARK_OPEN_API = 'https://open.larksuite.com';
