// Running one measured child process for the end-to-end benches: wall time
// from spawn to exit and, through /usr/bin/time -v when present, peak RSS.
import {spawn} from 'node:child_process'
import {closeSync, createReadStream, existsSync, openSync, readFileSync, statSync} from 'node:fs'

const TIME = '/usr/bin/time'

export interface Sample {
  ms: number
  maxRssKb: number
  /** What the child wrote to stdout ('' with `readOut: false`). */
  out: string
  /** Bytes the child wrote to stdout. */
  outBytes: number
  /** User + system CPU time (ms), from /usr/bin/time: steadier than the wall on a busy machine. */
  cpuMs: number
}

/**
 * Runs `node ARGS` under /usr/bin/time -v (when present), stdout to a file;
 * `input`: a file piped to its stdin (through a pipe, as `cat FILE |`).
 */
export function measure(args: string[], opts: {cwd: string; env: NodeJS.ProcessEnv; outFile: string; input?: string; readOut?: boolean}): Promise<Sample> {
  const timeFile = `${opts.outFile}.time`
  const useTime = existsSync(TIME)
  const [file, argv] = useTime ? [TIME, ['-v', '-o', timeFile, process.execPath, ...args]] : [process.execPath, args]
  const fd = openSync(opts.outFile, 'w')
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const child = spawn(file, argv, {cwd: opts.cwd, env: opts.env, stdio: [opts.input ? 'pipe' : 'ignore', fd, 'pipe']})
    if (opts.input) createReadStream(opts.input).pipe(child.stdin!)
    if (!child.stderr) throw new Error('no stderr pipe')
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6
      closeSync(fd)
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))
      const report = useTime ? readFileSync(timeFile, 'utf8') : ''
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(report)
      const seconds = (what: string) => Number(new RegExp(`${what} time \\(seconds\\): ([\\d.]+)`).exec(report)?.[1] ?? Number.NaN)
      resolve({
        ms,
        maxRssKb: rss ? Number(rss[1]) : Number.NaN,
        out: opts.readOut === false ? '' : readFileSync(opts.outFile, 'utf8'),
        outBytes: statSync(opts.outFile).size,
        cpuMs: (seconds('User') + seconds('System')) * 1000,
      })
    })
  })
}

export {listenLocal} from '../../test/helpers/local-server.js'
