// In-memory prompt streams for the context seam: keys go into `input`, and
// everything the prompt writes collects in `written()`.
import {PassThrough, Writable} from 'node:stream'

export function memoryStreams(): {input: PassThrough; output: Writable; written: () => string} {
  const input = new PassThrough()
  let written = ''
  const output = new Writable({
    write(chunk, _enc, done) {
      written += String(chunk)
      done()
    },
  })
  return {input, output, written: () => written}
}
