import { loadConfig } from './config.js';

export function listenAddress(env = process.env) {
  const config = loadConfig(env);
  return `${config.host}:3000`;
}
