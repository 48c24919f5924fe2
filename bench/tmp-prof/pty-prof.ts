import {mkdtempSync, mkdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import pty from '@lydell/node-pty'
import {readdirSync, readFileSync, writeFileSync} from "node:fs"
import {startServer, textHeavyAnswer} from '../markdown.js'
import {benchHome} from '../lib/jp-run.js'
const MB = Number(process.env.MB ?? 20)
const mode = process.env.MODE ?? 'rendered'
const out = process.env.OUT ?? '/tmp/prof/pty'
mkdirSync(out, {recursive: true})
const server = await startServer(textHeavyAnswer(MB * 1024 * 1024))
const dir = mkdtempSync(join(tmpdir(), 'jp-prof-'))
const {env, work} = benchHome(dir, server.baseUrl)
if (mode === 'raw') env.JP_CFG_STYLE_MARKDOWN = 'false'
const args = [...(process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${out}`] : []), ...(process.env.ARGS ? process.env.ARGS.split(' ') : [])]
const start = performance.now(); const cpu0 = process.cpuUsage()
const term = pty.spawn(process.execPath, [...args, (process.env.BIN ?? join(process.cwd(), 'bin/run.js')), 'query', '-n', 'go'], {cols: 100, rows: 40, cwd: work, env: {...env, TERM: 'xterm-256color'}})
let bytes = 0
const tasks = new Map<string, {comm: string; cpu: number}>()
const sample = () => {
  try {
    for (const tid of readdirSync(`/proc/${term.pid}/task`)) {
      const stat = readFileSync(`/proc/${term.pid}/task/${tid}/stat`, 'utf8')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      tasks.set(tid, {comm, cpu: (Number(f[11]) + Number(f[12])) * 10})
    }
  } catch {}
}
const timer = setInterval(sample, 20)
let log = ""; term.onData((d) => { bytes += d.length; if (process.env.ARGS) log += d.replace(/\u001b\[[0-9;]*m/g, "") })
term.onExit(({exitCode}) => { clearInterval(timer); console.log([...tasks].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 6).map(([tid, t]) => `${Number(tid) === term.pid ? "main" : tid}=${t.cpu}`).join(" ")); const u = process.cpuUsage(cpu0); console.log(mode, "exit", exitCode, "wall", (performance.now() - start).toFixed(0), "bytes", bytes, "reader cpu", ((u.user + u.system) / 1000).toFixed(0)); if (process.env.ARGS) writeFileSync("/tmp/prof/ptylog.txt", log); server.close?.(); process.exit(0) })
