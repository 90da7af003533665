export function parseCsvLine(line) {
  return line.split(',');
}
