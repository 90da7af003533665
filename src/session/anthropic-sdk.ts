type AnthropicSdk = typeof import('@anthropic-ai/sdk');

let loading: Promise<AnthropicSdk> | undefined;
let loaded: AnthropicSdk | undefined;

/**
 * Anthropic's SDK, loaded on the first request to an Anthropic model: about 270 modules, a fifth
 * of the product's, that a process whose model is not Anthropic's never loads, and no process
 * loads before its first request.
 */
export function loadAnthropicSdk(): Promise<AnthropicSdk> {
  loading ??= import('@anthropic-ai/sdk').then((sdk) => {
    loaded = sdk;
    return sdk;
  });
  return loading;
}

/** The SDK once loaded (its error classes, for classing failures); before, no error of its exists. */
export function anthropicSdkIfLoaded(): AnthropicSdk | undefined {
  return loaded;
}
