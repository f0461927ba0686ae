/**
 * A session as Sepia IR JSON (issue "Exports": "JSON (the IR, versioned)"). The document is
 * `{format: "sepia-ir", irVersion, exportedAt, exportedBy, options, session}`: `session` is the
 * IR {@link Session} exactly as `src/shared/ir.ts` describes it (it carries `irVersion` too), so
 * another Sepia (or a script) reads it back without conversion.
 */
import { IR_VERSION, type Session } from '../../shared/ir'
import type { ContentChoice } from './rows'

/** The `format` tag of an IR JSON export. */
export const IR_JSON_FORMAT = 'sepia-ir'

/** The IR JSON export document. */
export interface IrJsonExport {
  format: typeof IR_JSON_FORMAT
  /** {@link IR_VERSION} of the exporting app. */
  irVersion: number
  /** ms since epoch. */
  exportedAt: number
  /** e.g. `Sepia 0.1.0`. */
  exportedBy: string
  options: { includeThinking: boolean; includeToolOutput: boolean }
  session: Session
}

/** Options for {@link sessionToIrJson}. */
export interface IrJsonOptions extends ContentChoice {
  exportedAt: number
  exportedBy: string
}

/**
 * The export document of a session (pure). `includeThinking: false` drops `thinking` and
 * `thinkingSignature`; `includeToolOutput: false` empties tool results (`content: ""`, no
 * `blocks`, `metadata.omitted = "tool output"`) and tool call `arguments`/`diffs`, keeping every
 * node and id so pairing still holds.
 */
export function sessionToIrJson(session: Session, options: IrJsonOptions): IrJsonExport {
  const thinking = options.includeThinking !== false
  const toolOutput = options.includeToolOutput !== false
  const nodes = session.nodes.map((n) => {
    const out = { ...n }
    if (!thinking) {
      delete out.thinking
      delete out.thinkingSignature
    }
    if (!toolOutput) {
      if (out.role === 'tool') {
        out.content = ''
        delete out.blocks
        out.metadata = { ...out.metadata, omitted: 'tool output' }
      }
      if (out.toolCalls) out.toolCalls = out.toolCalls.map((c) => ({ ...c, arguments: {}, diffs: undefined }))
    }
    return out
  })
  return {
    format: IR_JSON_FORMAT,
    irVersion: IR_VERSION,
    exportedAt: options.exportedAt,
    exportedBy: options.exportedBy,
    options: { includeThinking: thinking, includeToolOutput: toolOutput },
    session: { ...session, nodes },
  }
}

/** The export document as indented JSON text (ends with a newline). */
export function sessionToJsonText(session: Session, options: IrJsonOptions): string {
  return JSON.stringify(sessionToIrJson(session, options), null, 2) + '\n'
}
