/**
 * A Feishu app id as the console shows it and the SDK accepts it: `cli_` and 16 hex digits (the
 * SDK's long connection returns without a word for any other shape).
 */
export const APP_ID_SHAPE = /^cli_[0-9a-fA-F]{16}$/;
