/**
 * Issue 46: a write refused because its fencing token is stale — a newer owner took the turn
 * over (another worker, after this one stopped renewing its lease). Not an infrastructure
 * failure: the turn that meets it has lost, and stops without touching anything further.
 */
export class FencedError extends Error {
  readonly epochKey: string;
  readonly token: string;
  readonly current: string | null;

  constructor(epochKey: string, token: string, current: string | null) {
    super(
      `a newer owner holds ${epochKey} (epoch ${current ?? 'none'}, this one ${token}): the write was refused`,
    );
    this.name = 'FencedError';
    this.epochKey = epochKey;
    this.token = token;
    this.current = current;
  }
}
