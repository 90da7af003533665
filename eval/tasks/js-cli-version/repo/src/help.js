export const HELP = `usage: greeter [name]
  --help     show this help`;
