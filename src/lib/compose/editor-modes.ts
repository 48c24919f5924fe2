// The two questions every composition asks of `compose_in_editor` (SPEC §7),
// answered once so no caller re-derives them.
import type {ComposeInEditor} from '../config/types.js'

/** Editor-first modes (`true`, `"always"`) open the editor before any inline widget. */
export function startsInEditor(compose: ComposeInEditor): boolean {
  return compose === true || compose === 'always'
}

/**
 * Whether the inline widget wires (and advertises) the Ctrl+X escape. Only
 * `"never"` unwires it; for `true` it applies to the inline fallback shown when
 * the editor cannot open (`"always"` never shows the inline widget).
 */
export function editorEscape(compose: ComposeInEditor): boolean {
  return compose !== 'never'
}
