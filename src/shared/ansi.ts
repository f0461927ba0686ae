/**
 * ANSI terminal escape sequences, as command output holds them: CSI (`ESC [ ... m`, colours and
 * cursor moves), OSC (`ESC ] ... BEL` or `ESC ] ... ESC \`, titles and links) and the two-byte
 * forms. Claude Code's `<local-command-stdout>` and tool results of shell commands carry them
 * (fixtures/public-real: claude-code omp-images, sword-1090-siblings; codex agentv-0142-compacted).
 */

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g

/** Remove ANSI escape sequences (and any stray ESC) from `text`; other text is kept as is. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.includes('\x1b') ? text.replace(ANSI, '').replace(/\x1b/g, '') : text
}
