/**
 * An error the HTTP layer turns into a response: `status` with `{ error: message, code }`.
 * Thrown at the edge for bad signatures (401), malformed bodies (400), conflicts (409) and
 * validation failures (422); mapped in one place (`src/web/app.ts`).
 */
export class HttpError extends Error {
  override name = 'HttpError' as const;
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503;
  readonly code: string;
  readonly extra: Record<string, unknown>;
  constructor(
    status: HttpError['status'],
    code: string,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export const isHttpError = (e: unknown): e is HttpError =>
  e instanceof HttpError || (e instanceof Error && e.name === 'HttpError' && 'status' in e);
