/** The sandbox could not be set up for a command (bubblewrap or pasta failed before it ran). */
export class SandboxError extends Error {
  override name = 'SandboxError' as const;
  readonly code = 'sandbox_failed';
}
