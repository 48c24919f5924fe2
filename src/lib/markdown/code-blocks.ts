// The code blocks of a markdown text as the renderer sees them (the same
// parser, so the blocks `jp conversation code` numbers are the ones shown):
// each block's info string and its source text, exactly (a final newline
// included). Imported lazily: it loads markdown-it.
import {createParser} from './index.js'

export interface CodeBlock {
  /** The fence's info string, trimmed ('' for an indented block or a bare fence). */
  info: string
  /** The block's text as written, ending with a newline (an empty block: ''). */
  text: string
}

/** The fenced and indented code blocks of `markdown`, in order (nested in lists and quotes too). */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  for (const t of createParser().parse(markdown, {})) {
    if (t.type === 'fence') blocks.push({info: t.info.trim(), text: t.content})
    else if (t.type === 'code_block') blocks.push({info: '', text: t.content})
  }
  return blocks
}
