import { z } from 'zod';

/** A person named on a list, with the channel their id belongs to (issue 14, R-A5). */
export interface ChannelEntry {
  channel: 'feishu' | 'github';
  /** Feishu open/user/union id; GitHub login (lower-cased) or numeric user id. */
  id: string;
}

const split = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * `feishu:ou_…`, `github:login` or `github:12345`. An entry without its channel is refused, not
 * guessed: a bare `alice` could be a Feishu user id on one channel and someone else's GitHub login
 * on the other (docs/security.md, "Migrating allow-lists").
 */
export const channelUsers = z
  .string()
  .optional()
  .transform((v, ctx): ChannelEntry[] => {
    const out: ChannelEntry[] = [];
    for (const entry of split(v)) {
      const m = /^(feishu|github):(.+)$/.exec(entry);
      const id = m?.[2]?.trim();
      if (!m || !id) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" names no channel: write feishu:${entry} (a Feishu open_id, user_id or union_id) or github:${entry} (a GitHub login or numeric id)`,
        });
        continue;
      }
      out.push(m[1] === 'github' ? { channel: 'github', id: id.toLowerCase() } : { channel: 'feishu', id });
    }
    return out;
  });

/** `feishu:oc_…`: chats exist on Feishu only (on GitHub the repository permission decides). */
export const channelChats = z
  .string()
  .optional()
  .transform((v, ctx): string[] => {
    const out: string[] = [];
    for (const entry of split(v)) {
      const id = /^feishu:(.+)$/.exec(entry)?.[1]?.trim();
      if (!id) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not feishu:<chat_id> (write feishu:${entry.replace(/^\w+:/, '')}; GitHub has no allowed chats, its repository permission decides)`,
        });
        continue;
      }
      out.push(id);
    }
    return out;
  });

/** The entries of one channel. */
export const entriesOf = (entries: readonly ChannelEntry[], channel: ChannelEntry['channel']): string[] =>
  entries.filter((e) => e.channel === channel).map((e) => e.id);
