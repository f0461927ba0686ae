/**
 * The user-facing strings of "Move to another computer…" and "Install a session bundle…" (issue 19,
 * src/renderer/src/components/session-actions/MoveDialog.vue and InstallBundleDialog.vue).
 */
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

export const moveStrings = {
  move: {
    open: 'Move to another computer…',
    openHint: 'Write this session, its sub-agents and checkpoints as one file to install on another computer',
    title: 'Move to another computer',
    intro:
      'Writes this session as one zip file: the conversation, its sub-agents, its checkpoints and file history. On the other computer, open Sepia and install it; it is placed where the agent looks, under the project folder you choose there, so the agent can resume it.',
    secrets:
      'The file holds the session exactly as it is stored, including any API keys, tokens or passwords that appear in it. It is meant for your own other computer: do not share it. To show a session to someone else, use Export or Collect for review, which hide secrets.',
    unsupported: (agent: string) => `Sessions of ${agent} cannot be moved yet. Sepia moves Claude Code, Codex and Cline CLI sessions.`,
    where: 'Put it in',
    name: 'File name',
    submit: 'Write the file',
    writing: 'Writing…',
    doneTitle: 'Session file written',
    path: 'Written to',
    summary: (files: number, bytes: string) => `${plural(files, 'file', 'files')}, ${bytes}`,
    next: 'On the other computer: open Sepia, choose Open folder…, then Install a session bundle…, or drop the file on the window and choose Install.',
  },
  installBundle: {
    open: 'Install a session bundle…',
    openHint: 'Install a session moved from another computer, so its agent can resume it here',
    installThis: 'Install on this computer…',
    installThisHint: 'This is a session bundle: install it where its agent looks, so it can be resumed',
    title: 'Install a session bundle',
    intro: 'Places a session moved from another computer into its agent’s history on this computer, under the project folder you choose. Nothing already there is replaced.',
    file: 'Session bundle (.zip)',
    project: 'Project folder on this computer',
    projectHint: (recorded: string) => `Leave empty to keep ${recorded}. A path from another operating system must be changed to where the project lives here.`,
    projectHintUnknown: 'Leave empty to keep the folder the session recorded.',
    submit: 'Install',
    installing: 'Installing…',
    doneTitle: 'Session installed',
    newId: (old: string) => `It got a new id: ${old} is already on this computer.`,
    readBack: (messages: number) => `Read back: ${plural(messages, 'message', 'messages')}.`,
    resume: 'Resume it in a terminal',
    projectIs: 'Project folder',
  },
}
