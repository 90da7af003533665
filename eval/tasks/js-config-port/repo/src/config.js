export function loadConfig(env = process.env) {
  return { host: env.HOST ?? '127.0.0.1' };
}
