import type { Client } from '@larksuiteoapi/node-sdk';

/** What `GET /open-apis/contact/v3/users/:user_id` answers, as far as a name goes. */
interface UserAnswer {
  code?: number;
  msg?: string;
  data?: { user?: { name?: string; en_name?: string; nickname?: string } };
}

/** A name, or Feishu's code for why there is none (0: it answered without one — no field scope). */
export type ContactName = { ok: true; name: string } | { ok: false; code: number; msg: string };

const MAX_NAME = 200;

/**
 * A person's display name from Feishu's contact API, by open_id (issue 33 item 3). The app needs a
 * contacts scope and the person in its contacts range: otherwise Feishu answers 400 with 99991672
 * (no scope) or 41050 ("no user authority error"); without `contact:user.base:readonly` it answers
 * with the user and no name. Each is a `{ ok: false }` with Feishu's code, never a throw; a
 * network failure or time-out throws.
 */
export async function contactName(client: Client, openId: string): Promise<ContactName> {
  let answer: UserAnswer;
  try {
    answer = (await client.request({
      method: 'GET',
      url: `/open-apis/contact/v3/users/${encodeURIComponent(openId)}`,
      params: { user_id_type: 'open_id' },
    })) as UserAnswer;
  } catch (err) {
    // The SDK's HTTP client throws on a 4xx; Feishu's own answer is in its body.
    const data = (err as { response?: { data?: UserAnswer } }).response?.data;
    if (!data || typeof data.code !== 'number') throw err;
    answer = data;
  }
  if (answer.code !== 0) return { ok: false, code: answer.code ?? -1, msg: answer.msg ?? 'error' };
  const u = answer.data?.user;
  const name = (u?.name || u?.en_name || u?.nickname || '').trim().slice(0, MAX_NAME);
  return name ? { ok: true, name } : { ok: false, code: 0, msg: 'answered without a name' };
}
