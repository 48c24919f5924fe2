// The workspace's files for `@` completion (the I/O shell around match.ts):
// listed in the background when a prompt opens, never delaying it; kept per
// workspace for the process and listed again (in the background, the old list
// serving meanwhile) when a later prompt opens. In a git repository the list
// is `git ls-files --cached --others --exclude-standard` (what .gitignore
// hides is not listed), then filtered by `.ignore` files; elsewhere a walk
// that reads `.gitignore` and `.ignore` itself (the `ignore` package). A typed
// path to an ignored file still completes: `typed()` looks at the directory
// the query names.
import {spawn} from 'node:child_process'
import {readdirSync, statSync} from 'node:fs'
import {readdir, readFile} from 'node:fs/promises'
import {dirname, join, posix} from 'node:path'
import {performance} from 'node:perf_hooks'
import {slot} from '../../process/slots.js'
import {candidate, PathMatcher, type Candidate, type RankedList} from './match.js'

/** The walk's bound (outside git): a home directory must not be read whole. */
export const WALK_LIMIT = 200_000
/** Recently mentioned and modified files rank first by this much. */
const RECENT_BOOST = 40
const MODIFIED_BOOST = 20

type Ignorer = {ignores(path: string): boolean}

/** Runs git with `args` in `cwd`; resolves its stdout, or undefined when git is missing or fails. */
function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn('git', args, {cwd, stdio: ['ignore', 'pipe', 'ignore']})
    } catch {
      resolve(undefined)
      return
    }
    const chunks: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => chunks.push(c))
    child.on('error', () => resolve(undefined))
    child.on('close', (code) => resolve(code === 0 ? Buffer.concat(chunks).toString('utf8') : undefined))
  })
}

async function ignorerFor(root: string, dir: string, names: readonly string[]): Promise<Ignorer | undefined> {
  const rules: string[] = []
  for (const name of names) {
    try {
      rules.push(await readFile(join(root, dir, name), 'utf8'))
    } catch {
      // none here
    }
  }
  if (rules.length === 0) return undefined
  const {default: ignore} = await import('ignore')
  return ignore().add(rules.join('\n'))
}

/** Drops what `.ignore` files (found in the list itself) exclude below their directory. */
async function withoutDotIgnored(root: string, files: string[]): Promise<string[]> {
  const dirs = files.filter((f) => f === '.ignore' || f.endsWith('/.ignore')).map((f) => posix.dirname(f))
  if (dirs.length === 0) return files
  const rules: Array<{prefix: string; ig: Ignorer}> = []
  for (const d of dirs) {
    const ig = await ignorerFor(root, d === '.' ? '' : d, ['.ignore'])
    if (ig) rules.push({prefix: d === '.' ? '' : `${d}/`, ig})
  }
  return files.filter((f) => !rules.some((r) => f.startsWith(r.prefix) && r.ig.ignores(f.slice(r.prefix.length))))
}

/** Outside git: a breadth-first walk honouring `.gitignore` and `.ignore` of each directory, skipping `.git`. */
async function walk(root: string): Promise<string[]> {
  const out: string[] = []
  const queue: Array<{dir: string; rules: Array<{prefix: string; ig: Ignorer}>}> = [{dir: '', rules: []}]
  while (queue.length > 0 && out.length < WALK_LIMIT) {
    const {dir, rules: inherited} = queue.shift()!
    let entries
    try {
      entries = await readdir(join(root, dir), {withFileTypes: true})
    } catch {
      continue
    }
    const names = entries.map((e) => e.name)
    const own = await ignorerFor(root, dir, ['.gitignore', '.ignore'].filter((n) => names.includes(n)))
    const rules = own ? [...inherited, {prefix: dir === '' ? '' : `${dir}/`, ig: own}] : inherited
    for (const e of entries) {
      if (e.name === '.git') continue
      const rel = dir === '' ? e.name : `${dir}/${e.name}`
      const isDir = e.isDirectory()
      const test = isDir ? `${rel}/` : rel
      if (rules.some((r) => test.startsWith(r.prefix) && r.ig.ignores(test.slice(r.prefix.length)))) continue
      if (isDir) queue.push({dir: rel, rules})
      else out.push(rel)
    }
  }
  return out
}

/** The workspace's files, relative to `root`, as git or the walk sees them. */
export async function listWorkspaceFiles(root: string): Promise<{files: string[]; modified: string[]}> {
  // Both at once: each walks the tree, and two cores share the wait.
  const [listed, status] = await Promise.all([
    git(root, ['ls-files', '--cached', '--others', '--exclude-standard', '-z']),
    git(root, ['status', '--porcelain', '-z', '--untracked-files=no']),
  ])
  if (listed === undefined) return {files: await walk(root), modified: []}
  const files = await withoutDotIgnored(root, [...new Set(listed.split('\0').filter((f) => f !== ''))])
  const modified = (status ?? '')
    .split('\0')
    .filter((l) => l.length > 3 && l[2] === ' ')
    .map((l) => l.slice(3))
  return {files, modified}
}

interface Slot {
  matcher: PathMatcher | undefined
  listing: Promise<void> | undefined
  /** When the last listing ended (performance.now()). */
  listedAt: number
  recent: string[]
}

/** Prompts opened in quick succession (a menu, then a reply) share one listing. */
export const RELIST_AFTER_MS = 2000

// A process-wide slot (process/slots.ts): two copies of this module share one index per root.
const slots = slot('mentionIndexes', () => new Map()) as Map<string, Slot>

/**
 * One workspace's file index. `refresh()` lists again in the background
 * (the previous list serves meanwhile); `rank()` answers from what is listed
 * now (nothing before the first listing ends).
 */
export class FileIndex {
  private readonly slot: Slot

  constructor(readonly root: string) {
    let slot = slots.get(root)
    if (!slot) slots.set(root, (slot = {matcher: undefined, listing: undefined, listedAt: -Infinity, recent: []}))
    this.slot = slot
  }

  get ready(): boolean {
    return this.slot.matcher !== undefined
  }

  /** Lists the files again unless a listing is under way or has just ended; resolves when the list is there. */
  refresh(): Promise<void> {
    if (this.slot.matcher && performance.now() - this.slot.listedAt < RELIST_AFTER_MS) return Promise.resolve()
    this.slot.listing ??= listWorkspaceFiles(this.root)
      .then(({files, modified}) => {
        this.slot.matcher = new PathMatcher(this.candidates(files, modified))
        this.slot.listedAt = performance.now()
      })
      .catch(() => {
        this.slot.matcher ??= new PathMatcher([])
      })
      .finally(() => (this.slot.listing = undefined))
    return this.slot.listing
  }

  private candidates(files: readonly string[], modified: readonly string[]): Candidate[] {
    const changed = new Set(modified)
    const recent = new Set(this.slot.recent)
    return files.map((f) => candidate(f, (recent.has(f) ? RECENT_BOOST : 0) + (changed.has(f) ? MODIFIED_BOOST : 0)))
  }

  /** A path was taken into a buffer: it ranks first, now and in the next listings of this process. */
  remember(path: string): void {
    this.slot.recent = [path, ...this.slot.recent.filter((p) => p !== path)].slice(0, 50)
    this.slot.matcher?.lift(path, RECENT_BOOST)
  }

  rank(query: string, limit: number): RankedList {
    const ranked = this.slot.matcher?.rank(query, limit) ?? {paths: [], total: 0}
    const typed = this.typed(query)
    if (typed.length === 0) return ranked
    const paths = [...typed, ...ranked.paths.filter((p) => !typed.includes(p))].slice(0, limit)
    return {paths, total: ranked.total + typed.filter((p) => !ranked.paths.includes(p)).length}
  }

  /**
   * What a query that names a path names on disk, ignored or not: the file
   * itself, or the entries of its directory that start with its last part
   * (only for a query with a `/`: a bare word is matched, not looked up).
   */
  typed(query: string): string[] {
    if (!query.includes('/') || query.startsWith('/') || query.startsWith('~')) return []
    const dir = query.endsWith('/') ? query.slice(0, -1) : dirname(query)
    const rest = query.endsWith('/') ? '' : query.slice(dir.length + 1)
    try {
      if (statSync(join(this.root, query)).isFile()) return [query]
    } catch {
      // not a file: look in its directory
    }
    try {
      return readdirSync(join(this.root, dir), {withFileTypes: true})
        .filter((e) => e.name.startsWith(rest) && e.name !== '.git')
        .map((e) => `${dir}/${e.name}${e.isDirectory() ? '/' : ''}`)
        .sort()
        .slice(0, 8)
    } catch {
      return []
    }
  }
}
