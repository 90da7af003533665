/** A pull request in the demo's GitHub, as its pages and REST answers show it. */
export interface DemoPull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
  state: 'open' | 'closed';
  /** A person's login for a pull request a person opened (the bot's when absent). */
  author?: string;
}
