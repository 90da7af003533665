import type { RecordedRequest } from './fake-llm-request.ts';

/** An error answer a provider gives instead of a completion: status and its JSON body as sent. */
export interface ProviderError {
  status: number;
  body: unknown;
}

/** The provider a fake model plays: what it refuses, the reasoning it adds, the usage it reports. */
export interface FakeDialectRules {
  /** The refusal for a request that breaks one of the provider's rules, checked before any script. */
  refuse(req: RecordedRequest): ProviderError | undefined;
  /** The `reasoning_content` to answer with, or undefined for none. */
  reasoning(req: RecordedRequest, scripted: string | undefined): string | undefined;
  /** The `usage` object; scripted token counts win over measured ones. */
  usage(
    req: RecordedRequest,
    scripted?: { prompt_tokens?: number; completion_tokens?: number },
  ): Record<string, unknown>;
  /** Request fields the provider silently ignores, for tests to look at. */
  ignored(req: RecordedRequest): string[];
}
