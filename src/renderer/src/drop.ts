/**
 * Drag and drop of a folder (or a zip, or a session file) onto the window. While files are
 * dragged over the window `dragging` is true (the overlay shows); on drop, the item's path comes
 * from the preload (`droppedPath`) and is opened. A browser never tells a dropped item's path:
 * there, and when the path is unknown, a notice says what to do instead. Anything dropped is
 * always taken from the browser, so a drop never navigates the window away.
 */
import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue'
import { droppedPath, isElectron } from './bridge'

/** What happened to a drop. */
export type DropOutcome = { kind: 'path'; path: string } | { kind: 'needs-desktop' } | { kind: 'no-path' } | { kind: 'nothing' }

/** The outcome of dropping `files` (the first item counts). */
export function dropOutcome(files: ArrayLike<File> | null | undefined, electron: boolean, pathOf: (f: File) => string | null): DropOutcome {
  const file = files?.[0]
  if (!file) return { kind: 'nothing' }
  const path = pathOf(file)
  if (path) return { kind: 'path', path }
  return electron ? { kind: 'no-path' } : { kind: 'needs-desktop' }
}

const hasFiles = (e: DragEvent): boolean => [...(e.dataTransfer?.types ?? [])].includes('Files')

/** Listen for drops on the window while the component is mounted. */
export function useFileDrop(onDrop: (outcome: DropOutcome) => void, enabled: () => boolean): { dragging: Ref<boolean> } {
  const dragging = ref(false)
  let depth = 0

  function over(e: DragEvent): void {
    if (!hasFiles(e)) return
    e.preventDefault()
    if (e.dataTransfer) e.dataTransfer.dropEffect = enabled() ? 'copy' : 'none'
  }
  function enter(e: DragEvent): void {
    if (!hasFiles(e)) return
    depth++
    dragging.value = enabled()
  }
  function leave(e: DragEvent): void {
    if (!hasFiles(e)) return
    depth = Math.max(0, depth - 1)
    if (depth === 0) dragging.value = false
  }
  function drop(e: DragEvent): void {
    e.preventDefault()
    depth = 0
    dragging.value = false
    if (!enabled()) return
    onDrop(dropOutcome(e.dataTransfer?.files, isElectron(), droppedPath))
  }

  onMounted(() => {
    window.addEventListener('dragover', over)
    window.addEventListener('dragenter', enter)
    window.addEventListener('dragleave', leave)
    window.addEventListener('drop', drop)
  })
  onBeforeUnmount(() => {
    window.removeEventListener('dragover', over)
    window.removeEventListener('dragenter', enter)
    window.removeEventListener('dragleave', leave)
    window.removeEventListener('drop', drop)
  })
  return { dragging }
}
