import type { Config } from '../config.ts';
import { LARK_OPEN_API } from './accounts-url.ts';

export interface ScannedApp {
  appId: string;
  appSecret: string;
  brand: 'feishu' | 'lark';
}

/**
 * The lines for `.env`, shown once (as the GitHub App's key): the app id and secret; Lark's
 * Open API when the app lives on a Lark tenant and `FEISHU_DOMAIN` says otherwise; and, when this
 * deployment takes events over HTTP, what else start-up will ask for (the Encrypt Key cannot be
 * preset by a scan).
 */
export function feishuEnvBlock(config: Pick<Config, 'FEISHU_DOMAIN' | 'feishuEventMode'>, app: ScannedApp) {
  const lines = [
    `# Feishu app ${app.appId}, created from the panel by scanning`,
    `FEISHU_APP_ID=${app.appId}`,
    `FEISHU_APP_SECRET=${app.appSecret}`,
  ];
  if (app.brand === 'lark' && new URL(config.FEISHU_DOMAIN).origin !== LARK_OPEN_API)
    lines.push(`FEISHU_DOMAIN=${LARK_OPEN_API}`);
  if (config.feishuEventMode === 'http')
    lines.push(
      '# Events come over HTTP here: set FEISHU_ENCRYPT_KEY (and FEISHU_VERIFICATION_TOKEN) from the',
      "# app's Events & Callbacks page, or FEISHU_EVENT_MODE=ws for the long connection",
    );
  return `${lines.join('\n')}\n`;
}
