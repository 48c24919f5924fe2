// @xterm/headless and its Unicode-graphemes addon, for every test that
// renders into a headless terminal (pty sessions, the markdown copy and
// table tests): emoji, ZWJ sequences and flags two cells wide, as modern
// terminals draw them and as jp's renderer assumes.
//
// The addon (0.4.0, the latest) decodes its Unicode table from base64 with
// Buffer.from and then reads the header through `new DataView(e.buffer)`,
// ignoring the Buffer's byteOffset. A short Buffer is a slice of Node's
// shared pool, so once anything has allocated from the pool (tsx always
// has, by the time a test file loads) the header is read from unrelated
// bytes: the table comes out garbage (every emoji one cell wide, ZWJ
// sequences split) and the addon allocates 1.7 GB of zeroed ArrayBuffer per
// load, which V8 counts as external memory and answers with extra garbage
// collections in every mocha worker. With the pool off while it loads, the
// decoded Buffer owns its memory from offset 0 and the table is right.
import {createRequire} from 'node:module'
import type * as XtermHeadless from '@xterm/headless'

const require = createRequire(import.meta.url)

export const {Terminal} = require('@xterm/headless') as typeof XtermHeadless

export const UnicodeGraphemesAddon = withoutBufferPool(
  () => (require('@xterm/addon-unicode-graphemes') as {UnicodeGraphemesAddon: new () => XtermHeadless.ITerminalAddon}).UnicodeGraphemesAddon,
)

function withoutBufferPool<T>(load: () => T): T {
  const poolSize = Buffer.poolSize
  Buffer.poolSize = 0
  try {
    return load()
  } finally {
    Buffer.poolSize = poolSize
  }
}
