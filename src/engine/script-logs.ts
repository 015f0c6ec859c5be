/**
 * How much of a script's log a result carries. A model reads it, and a client refuses messages past a size (the
 * official SDK: 10 MB, and then it closes the connection): 1000 lines of 20 KB each ended the whole MCP session.
 * Lines are cut at MAX_LINE_CHARS (in the script's thread, so a 5 MB line never crosses threads whole), and the
 * lines kept at MAX_LOG_CHARS, half from the start and half from the end, with the middle counted.
 */
export const MAX_LINE_CHARS = 2_000;
export const MAX_LOG_CHARS = 65_536;

/** `line` cut to MAX_LINE_CHARS, saying how much was cut. */
export function cutLine(line: string): string {
  return line.length <= MAX_LINE_CHARS
    ? line
    : `${line.slice(0, MAX_LINE_CHARS)} … (${line.length - MAX_LINE_CHARS} more characters)`;
}

/** `logs` within MAX_LOG_CHARS: the first and last lines that fit, a marker between; `omitted` counts the rest. */
export function fitLogs(logs: string[], omitted: number): { logs: string[]; omitted: number } {
  const size = logs.reduce((n, l) => n + l.length, 0);
  if (size <= MAX_LOG_CHARS) return { logs, omitted };
  const half = MAX_LOG_CHARS / 2;
  const head: string[] = [];
  const tail: string[] = [];
  let used = 0;
  for (const line of logs) {
    if (used + line.length > half) break;
    head.push(line);
    used += line.length;
  }
  used = 0;
  for (let i = logs.length - 1; i >= head.length; i--) {
    if (used + logs[i]!.length > half) break;
    tail.unshift(logs[i]!);
    used += logs[i]!.length;
  }
  // Marker lines of an earlier cut are not lines the script logged.
  const dropped = logs.slice(head.length, logs.length - tail.length).filter((l) => !MARKER.test(l)).length;
  const total = omitted + dropped;
  return { logs: [...head, marker(total), ...tail], omitted: total };
}

const MARKER = /^\.\.\. \d+ more line\(s\) logged here, not kept \.\.\.$/;
export const marker = (n: number) => `... ${n} more line(s) logged here, not kept ...`;
