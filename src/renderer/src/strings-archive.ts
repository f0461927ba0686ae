/**
 * The user-facing strings of the archive (issue 19): the first-start question, the retention
 * warnings, the "Archived" note and Put back in the session view, and the archive's part of
 * Settings. Merged into `strings` (strings.ts) under `archive`.
 */
const nf = new Intl.NumberFormat()
const sessions = (n: number): string => `${nf.format(n)} ${n === 1 ? 'session' : 'sessions'}`

/** Bytes as `1.2 GB` (decimal units, as file managers show them). */
export function formatSize(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let v = n
  let i = 0
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000
    i++
  }
  return i === 0 ? `${nf.format(n)} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`
}

/** The archive's strings. */
export const archiveStrings = {
  archive: {
    questionTitle: 'Keep a copy of your agent history?',
    /** The first-start question; `size` is the size of the session files now (formatted), or undefined. */
    question: (size: string | undefined) => `Keep a copy of your agent history so it is never lost?${size ? ` It uses about ${size} now.` : ''}`,
    questionWhy:
      'Coding agents delete old conversations on their own (Claude Code after 30 days by default). Sepia can keep a compressed copy in its own folder on this computer, so a deleted conversation stays here and can be put back. Nothing leaves this computer. You can change this in Settings.',
    keep: 'Keep a copy',
    notNow: 'Not now',
    /** "Claude Code will delete 14 sessions in the next 7 days" */
    willDelete: (agent: string, n: number, days: number) => `${agent} will delete ${sessions(n)} in the next ${nf.format(days)} days`,
    safe: "they are safe in Sepia's archive",
    partlySafe: (archived: number, due: number) => `${nf.format(archived)} of ${nf.format(due)} are in Sepia's archive`,
    notArchived: 'not archived: turn the archive on',
    turnOn: 'Turn the archive on',
    retentionSetting: (setting: string, file: string, days: number, defaulted: boolean) =>
      defaulted ? `${setting} is not set in ${file}: the default of ${nf.format(days)} days applies` : `${setting} in ${file}`,
    /** "Archived: deleted by Claude Code on 12 Nov" */
    archivedNote: (agent: string, date: string) => `Archived: deleted by ${agent} on ${date}`,
    archivedBadge: 'archived',
    archivedHelp: "This conversation's files are gone from the agent's folder. Sepia shows it from its archive; Put back writes it back so the agent can resume it.",
    putBack: 'Put back',
    puttingBack: 'Putting back…',
    putBackDone: (n: number, command: string | undefined) => `Put back ${nf.format(n)} ${n === 1 ? 'file' : 'files'}, read back and identical to the archived copy.${command ? ` Resume it with: ${command}` : ''}`,
    putBackFailed: 'The files were written but did not read back as archived. Check the disk and try again.',
    settingsTitle: 'Archive',
    settingsIntro: "A compressed copy of every session file of your own home, kept in Sepia's data folder, so a conversation an agent deletes stays here.",
    enabled: 'Keep a copy of my agent history',
    size: (stored: string, raw: string) => `${stored} stored (${raw} before compression)`,
    counts: (n: number, gone: number) => `${sessions(n)} archived${gone ? `, ${nf.format(gone)} of them deleted by their agent` : ''}`,
    cap: 'Size cap (GB)',
    capFull: (n: number) => `The archive is full: ${nf.format(n)} new file ${n === 1 ? 'version was' : 'versions were'} not kept.`,
    excludedAgents: 'Leave out these agents',
    excludedProjects: 'Leave out these project folders (one per line)',
    save: 'Save',
    prune: 'Remove old versions',
    pruned: (n: number, freed: string) => `Removed ${nf.format(n)} old ${n === 1 ? 'version' : 'versions'}, freed ${freed}.`,
    ownHomeOnly: 'Only your own home is archived, never a folder someone sent you.',
  },
}
