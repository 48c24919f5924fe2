// Loads dist/jp.cjs (the CLI bundle) as a CommonJS module compiled through
// vm.Script with V8's cached data from dist/jp.cjs.cache, so a start-up skips
// most of parsing and compiling (Node 20 has no module.enableCompileCache();
// where Node has it, it is switched on as well).
//
// Safety: the cache starts with the SHA-1 of the bundle it was made from and
// is used only for that exact text (V8 itself checks only the length, its
// version and flags); a missing, stale or rejected cache just means a normal
// compile. The module is entered in require's cache, so oclif's require() of
// the same file (commands, hooks) gets this instance, not a second copy.
import {createHash} from 'node:crypto'
import {readFileSync} from 'node:fs'
import Module, {createRequire} from 'node:module'
import {dirname} from 'node:path'
import vm from 'node:vm'

const DIGEST_BYTES = 20

/** The cache file's header: the digest of the bundle text it belongs to. */
export function bundleDigest(source) {
  return createHash('sha1').update(source).digest()
}

/**
 * Runs the bundle at `file` and returns its exports and the compiled script
 * (whose createCachedData() the build uses). `useCache: false` compiles from
 * source, as the build does before producing the cache.
 */
export function loadBundle(file, {useCache = true} = {}) {
  const cached = Module._cache[file]
  if (cached) return {exports: cached.exports, script: undefined}
  const source = readFileSync(file)
  let cachedData
  if (useCache) {
    try {
      const data = readFileSync(`${file}.cache`)
      if (data.subarray(0, DIGEST_BYTES).equals(bundleDigest(source))) cachedData = data.subarray(DIGEST_BYTES)
    } catch {
      // no cache: compile from source
    }
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source.toString('utf8')}\n})`
  const script = new vm.Script(wrapped, {filename: file, cachedData})
  // The bundle's import() calls (oclif loading ESM plugins) come here: on
  // Node 20, code restored from the cache cannot run import() itself
  // (scripts/build.js, routeDynamicImports).
  globalThis[Symbol.for('jp.import')] ??= (specifier) => import(specifier)
  const mod = new Module(file, undefined)
  mod.filename = file
  mod.paths = Module._nodeModulePaths(dirname(file))
  Module._cache[file] = mod
  try {
    script.runInThisContext()(mod.exports, createRequire(file), mod, file, dirname(file))
  } catch (error) {
    delete Module._cache[file]
    throw error
  }
  mod.loaded = true
  return {exports: mod.exports, script, cacheRejected: cachedData ? script.cachedDataRejected : undefined}
}
