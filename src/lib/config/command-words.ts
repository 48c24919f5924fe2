// Command strings (`editor.cmd`, a tool's `command`) are split like POSIX sh
// words when used. One splitter for the load-time check and for EditorConfig,
// so a command that loads is a command that runs.
import {split} from 'shlex'

/** The words of `text` as sh would split them; undefined when its quoting is unbalanced. */
export function splitWords(text: string): string[] | undefined {
  return wordsProblem(text) === undefined ? split(text) : undefined
}

/** Why `text` cannot be split into words (the splitter's message), or undefined when it can. */
export function wordsProblem(text: string): string | undefined {
  try {
    split(text)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}
