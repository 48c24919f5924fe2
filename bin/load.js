// Loads dist/jp.cjs (the CLI bundle) as a CommonJS module compiled through
// vm.Script with V8's cached data from dist/jp.cjs.cache, so a start-up skips
// most of parsing and compiling (Node 20 has no module.enableCompileCache();
// where Node has it, it is switched on as well).
//
// Safety: the build ends the bundle with its build id (the SHA-1 of the text
// before it, scripts/build.js) and the cache starts with the id of the bundle
// it was made from; the cache is used only when the two match (V8 itself
// checks only the length, its version and flags). Reading the id costs the
// same whatever the bundle's size (hashing the 3.5 MB at every start cost
// 3-12 ms). A bundle edited by hand keeps its old id: rebuild instead. A
// missing, stale or rejected cache just means a normal compile. The module is
// entered in require's cache, so oclif's require() of the same file
// (commands, hooks) gets this instance, not a second copy.
//
// CommonJS (bin/package.json), so a start-up never sets up Node's ES-module
// loader (issue 40); ES modules (scripts, tests) import it all the same.
'use strict'
const {readFileSync} = require('node:fs')
const {dirname} = require('node:path')
const vm = require('node:vm')
// CommonJS's own Module class: require('node:module') would set up the
// ES-module loader (it carries module.register()).
const Module = module.constructor
const {createRequire} = Module

const ID_BYTES = 20
const ID_LINE = /\/\/# jp-build-id ([0-9a-f]{40})\n$/

/** The build id the bundle text ends with (20 bytes), or undefined for a bundle without one. */
function buildId(source) {
  const hex = ID_LINE.exec(source.subarray(Math.max(0, source.length - 64)).toString('latin1'))?.[1]
  return hex === undefined ? undefined : Buffer.from(hex, 'hex')
}

/**
 * Runs the bundle at `file` and returns its exports and the compiled script
 * (whose createCachedData() the build uses). `useCache: false` compiles from
 * source, as the build does before producing the cache.
 */
function loadBundle(file, {useCache = true} = {}) {
  const cached = Module._cache[file]
  if (cached) return {exports: cached.exports, script: undefined}
  const source = readFileSync(file)
  let cachedData
  if (useCache) {
    try {
      const id = buildId(source)
      const data = id && readFileSync(`${file}.cache`)
      if (data && data.subarray(0, ID_BYTES).equals(id)) cachedData = data.subarray(ID_BYTES)
    } catch {
      // no cache: compile from source
    }
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source.toString('utf8')}\n})`
  const script = new vm.Script(wrapped, {filename: file, cachedData})
  // The bundle's import() calls (oclif loading ESM plugins) come here: on
  // Node 20, code restored from the cache cannot run import() itself
  // (scripts/build.js, routeDynamicImports). An import() from a CommonJS
  // module: the ES-module loader is set up only when one is called.
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

module.exports = {buildId, loadBundle}
