/**
 * The contacts half of the fake Feishu (issue 33 item 3, people by name):
 * `GET /open-apis/contact/v3/users/:user_id?user_id_type=open_id` as Feishu answers it —
 * `{ code: 0, msg: "success", data: { user: { open_id, union_id, name, en_name, … } } }`. It refuses
 * as Feishu does: an app without a contacts scope gets 400 / 99991672 ("Access denied. One of the
 * following scopes is required: […]", with its `permission_violations`); a person outside the
 * app's contacts range (or no one the tenant knows) 400 / 41050 "no user authority error"; an
 * id type it does not know 400 / 99992402. Without the `contact:user.base:readonly` field scope
 * the user comes back without `name` (Feishu leaves out fields the app may not read).
 */

type Reply = [number, unknown];

export interface FakeContact {
  name: string;
  enName?: string;
}

export interface FakeContacts {
  /** People the tenant knows, by open_id, within the app's contacts range. */
  people: Map<string, FakeContact>;
  /** Whether the app was granted a contacts scope (default true); false answers 99991672. */
  scope: boolean;
  /** Whether the app may read names (`contact:user.base:readonly`, default true). */
  nameScope: boolean;
  /** Adds a person the app may look up. */
  add(openId: string, contact: FakeContact): void;
}

const PATH = /^\/open-apis\/contact\/v3\/users\/([^/]+)$/;
const SCOPES = [
  'contact:contact.base:readonly',
  'contact:contact:access_as_app',
  'contact:contact:readonly',
  'contact:contact:readonly_as_app',
];

export function createContacts(): FakeContacts & {
  route(method: string, path: string, query: Record<string, string>): Reply | undefined;
} {
  const people = new Map<string, FakeContact>();
  const contacts = {
    people,
    scope: true,
    nameScope: true,
    add: (openId: string, contact: FakeContact) => void people.set(openId, contact),
    route(method: string, path: string, query: Record<string, string>): Reply | undefined {
      const m = PATH.exec(path);
      if (method !== 'GET' || !m?.[1]) return undefined;
      if (!contacts.scope) return denied();
      const type = query.user_id_type ?? 'open_id';
      if (!['open_id', 'union_id', 'user_id'].includes(type))
        return [
          400,
          {
            code: 99992402,
            msg: 'field validation failed',
            error: { field_violations: [{ field: 'user_id_type' }] },
          },
        ];
      const openId = decodeURIComponent(m[1]);
      const person = type === 'open_id' ? people.get(openId) : undefined;
      if (!person) return [400, { code: 41050, msg: 'no user authority error' }];
      const user = {
        union_id: `on_${openId.slice(3)}`,
        open_id: openId,
        ...(contacts.nameScope ? { name: person.name, en_name: person.enName ?? '' } : {}),
        status: {
          is_frozen: false,
          is_resigned: false,
          is_activated: true,
          is_exited: false,
          is_unjoin: false,
        },
      };
      return [200, { code: 0, msg: 'success', data: { user } }];
    },
  };
  return contacts;
}

function denied(): Reply {
  return [
    400,
    {
      code: 99991672,
      msg: `Access denied. One of the following scopes is required: [${SCOPES.join(', ')}].`,
      error: {
        log_id: `fake-${Date.now().toString(36)}`,
        permission_violations: SCOPES.map((subject) => ({ type: 'action_scope_required', subject })),
      },
    },
  ];
}
