// Where a reply is composed (SPEC §7, `compose_in_editor`): the two questions
// every reply call site asks of the setting, so no caller re-derives them.
import type {ComposeInEditor} from './types.js'

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
