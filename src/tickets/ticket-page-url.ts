/**
 * Issue 49 item 2: the ticket's page on the panel, when the deployment names its public address
 * (`PUBLIC_URL`); undefined otherwise (a link to localhost would help nobody reading the PR).
 */
export function ticketPageUrl(publicUrl: string | undefined, ticketId: string): string | undefined {
  if (!publicUrl) return undefined;
  const base = publicUrl.replace(/\/+$/, '');
  return `${base}/panel/#/tickets/${encodeURIComponent(ticketId)}`;
}
