// editor.inline.keys.*: the key spec grammar, the default tables, how user
// tables merge over them, and every load-time error (file, line and key).
import {expect} from 'chai'
import {afterEach, beforeEach, describe, it} from 'mocha'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {KEY_ACTION_NAMES, KEY_ACTIONS} from '../../src/lib/config/key-actions.js'
import {displayKeySpec, parseKeySpec} from '../../src/lib/config/key-spec.js'
import {DEFAULT_KEYMAPS, effectiveKeymap, KEYMAP_NAMES, keyBindingConflicts, keyLabel} from '../../src/lib/config/keymaps.js'
import {ConfigError} from '../../src/lib/config/errors.js'
import {loadConfig, parseConfigToml} from '../../src/lib/config/load.js'

describe('key spec grammar', () => {
  const valid: Array<[string, string[]]> = [
    ['ctrl-r', ['ctrl-r']],
    ['Ctrl-R', ['ctrl-r']],
    ['CTRL-r', ['ctrl-r']],
    ['alt-enter', ['alt-enter']],
    ['shift-enter', ['shift-enter']],
    ['alt-ctrl-_', ['ctrl-alt-_']],
    ['shift-alt-ctrl-left', ['ctrl-alt-shift-left']],
    ['ctrl-shift-z', ['ctrl-shift-z']],
    ['alt-B', ['alt-b']],
    ['enter', ['enter']],
    ['Escape', ['escape']],
    ['space', ['space']],
    ['ctrl-space', ['ctrl-space']],
    ['f12', ['f12']],
    ['A', ['A']],
    ['a', ['a']],
    ['shift-a', ['A']],
    ['$', ['$']],
    ['-', ['-']],
    ['alt--', ['alt--']],
    ['ctrl-x ctrl-e', ['ctrl-x', 'ctrl-e']],
    ['d w', ['d', 'w']],
    ['g g', ['g', 'g']],
    ['é', ['é']],
  ]
  for (const [spec, chords] of valid) {
    it(`"${spec}" → ${JSON.stringify(chords)}`, () => {
      expect(parseKeySpec(spec)).to.deep.equal({ok: true, chords})
    })
  }

  const invalid: Array<[string, RegExp]> = [
    ['', /empty key spec/],
    ['   ', /empty key spec/],
    ['ctrl-x  ctrl-e', /empty key/],
    [' ctrl-r', /empty key/],
    ['ctrl-x ctrl-e ctrl-s', /has 3 keys; a binding is one key or a sequence of two/],
    ['ctrl-foo', /unknown key "foo" in "ctrl-foo"/],
    ['hyper-x', /unknown key "hyper-x".*modifiers are ctrl-, alt- and shift-/],
    ['ctrl-', /unknown key "ctrl-"/],
    ['ctrl-ctrl-a', /"ctrl-" given twice/],
    ['shift-$', /"shift-" goes with a letter or a named key/],
    ['enterr', /unknown key "enterr".*expected a named key \(enter, tab/],
    ['ab', /unknown key "ab"/],
  ]
  for (const [spec, problem] of invalid) {
    it(`"${spec}" is refused: ${problem}`, () => {
      const r = parseKeySpec(spec)
      expect(r.ok).to.equal(false)
      expect(!r.ok && r.problem).to.match(problem)
    })
  }

  it('names keys for the help line as people write them', () => {
    expect(displayKeySpec('ctrl-x')).to.equal('Ctrl+X')
    expect(displayKeySpec('alt-enter')).to.equal('Alt+Enter')
    expect(displayKeySpec('ctrl-x ctrl-e')).to.equal('Ctrl+X Ctrl+E')
    expect(displayKeySpec('escape')).to.equal('Esc')
    expect(displayKeySpec('ctrl-alt-_')).to.equal('Ctrl+Alt+_')
    expect(displayKeySpec('A')).to.equal('A')
  })
})

describe('default keymaps', () => {
  it('every default key parses to itself (tables are keyed by canonical spec) and names a known action', () => {
    for (const mode of KEYMAP_NAMES) {
      for (const [spec, action] of Object.entries(DEFAULT_KEYMAPS[mode])) {
        expect(parseKeySpec(spec), `${mode}: ${spec}`).to.deep.equal({ok: true, chords: spec.split(' ')})
        expect(KEY_ACTION_NAMES, `${mode}: ${spec}`).to.include(action)
      }
    }
  })

  it('no default key starts a sequence and also acts alone', () => {
    expect(keyBindingConflicts(DEFAULT_KEYMAPS as never)).to.deep.equal([])
    for (const mode of KEYMAP_NAMES) {
      const keys = Object.keys(DEFAULT_KEYMAPS[mode])
      for (const seq of keys.filter((k) => k.includes(' '))) expect(keys, `${mode}: ${seq}`).to.not.include(seq.split(' ')[0])
    }
  })

  it('emacs has no vi action; every action is bound somewhere or documented as bindable', () => {
    for (const action of Object.values(DEFAULT_KEYMAPS.emacs)) expect((KEY_ACTIONS[action] as {vi?: true}).vi, action).to.equal(undefined)
    for (const name of KEY_ACTION_NAMES) expect(KEY_ACTIONS[name].description, name).to.be.a('string').and.not.equal('')
  })

  it('pins SPEC §6/§18 keys: Enter submits, Alt+Enter newline, Ctrl+X and Ctrl+G open the editor, Ctrl+R searches', () => {
    const emacs = effectiveKeymap('emacs')
    expect(emacs.get('enter')).to.equal('submit')
    expect(emacs.get('alt-enter')).to.equal('newline')
    expect(emacs.get('shift-enter')).to.equal('newline')
    expect(emacs.get('ctrl-x')).to.equal('open_editor')
    expect(emacs.get('ctrl-g')).to.equal('open_editor')
    expect(emacs.get('ctrl-r')).to.equal('history_search')
    expect(effectiveKeymap('vi_insert').get('escape')).to.equal('vi_normal_mode')
    expect(effectiveKeymap('vi_insert').get('ctrl-r')).to.equal('history_search')
    expect(effectiveKeymap('vi_normal').get('d w')).to.equal('vi_delete_word')
    expect(effectiveKeymap('vi_normal').get('ctrl-r')).to.equal('redo')
    expect(keyLabel(emacs, 'newline')).to.equal('Alt+Enter')
    expect(keyLabel(emacs, 'open_editor')).to.equal('Ctrl+X')
  })
})

describe('user tables over the defaults', () => {
  it('replaces, adds and unbinds keys', () => {
    const map = effectiveKeymap('vi_insert', {enter: 'newline', 'alt-enter': 'submit', 'ctrl-z': 'none', 'Ctrl-T': 'undo'})
    expect(map.get('enter')).to.equal('newline')
    expect(map.get('alt-enter')).to.equal('submit')
    expect(map.has('ctrl-z')).to.equal(false)
    expect(map.get('ctrl-t')).to.equal('undo')
    // The other tables keep their defaults.
    expect(effectiveKeymap('emacs').get('enter')).to.equal('submit')
  })

  it('a user sequence displaces the default bound to its first key ("ctrl-x ctrl-e" makes Ctrl+X a prefix)', () => {
    const map = effectiveKeymap('emacs', {'ctrl-x ctrl-e': 'open_editor'})
    expect(map.has('ctrl-x')).to.equal(false)
    expect(map.get('ctrl-x ctrl-e')).to.equal('open_editor')
    expect(keyLabel(map, 'open_editor')).to.equal('Ctrl+G')
    expect(keyBindingConflicts({emacs: {'ctrl-x ctrl-e': 'open_editor'}})).to.deep.equal([])
  })

  it('a user key that starts a default sequence conflicts unless those sequences are unbound', () => {
    const [c] = keyBindingConflicts({vi_normal: {d: 'vi_delete_char'}})
    expect(c.spec).to.equal('d')
    expect(c.defaults).to.equal(true)
    expect(c.shadowed).to.include('d d').and.include('d w')
    const allOff = Object.fromEntries(Object.keys(DEFAULT_KEYMAPS.vi_normal).filter((k) => k.startsWith('d ')).map((k) => [k, 'none']))
    expect(keyBindingConflicts({vi_normal: {...allOff, d: 'vi_delete_char'}})).to.deep.equal([])
  })

  it('a user key and a user sequence starting with it conflict', () => {
    const [c] = keyBindingConflicts({emacs: {'ctrl-q': 'submit', 'ctrl-q ctrl-w': 'yank'}})
    expect(c).to.deep.include({mode: 'emacs', spec: 'ctrl-q', shadowed: ['ctrl-q ctrl-w'], defaults: false})
    expect(keyBindingConflicts({emacs: {'ctrl-q': 'none', 'ctrl-q ctrl-w': 'yank'}})).to.deep.equal([])
  })
})

describe('editor.inline.keys at load time', () => {
  let dir: string
  let ws: string
  let userFile: string
  let wsFile: string
  let env: NodeJS.ProcessEnv

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-keys-'))
    env = {HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg')}
    ws = join(dir, 'ws')
    mkdirSync(join(ws, '.jp'), {recursive: true})
    mkdirSync(join(dir, 'xdg', 'jp'), {recursive: true})
    userFile = join(dir, 'xdg', 'jp', 'config.toml')
    wsFile = join(ws, '.jp', 'config.toml')
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  const load = (opts: {cfgArgs?: string[]; trusted?: boolean; env?: NodeJS.ProcessEnv} = {}) =>
    loadConfig({cwd: dir, workspaceRoot: ws, env: {...env, ...opts.env}, cfgArgs: opts.cfgArgs, workspaceTrusted: opts.trusted})

  async function loadError(opts: Parameters<typeof load>[0] = {}): Promise<string> {
    try {
      await load(opts)
    } catch (e) {
      expect(e).to.be.instanceOf(ConfigError)
      return (e as Error).message
    }
    throw new Error('expected loadConfig to fail')
  }

  it('loads the issue\'s example tables', async () => {
    writeFileSync(
      userFile,
      [
        '[editor.inline.keys.emacs]',
        '"ctrl-r" = "history_search"',
        '"ctrl-x ctrl-e" = "open_editor"',
        '"ctrl-z" = "none"',
        '[editor.inline.keys.vi_insert]',
        '"enter" = "newline"',
        '"alt-enter" = "submit"',
        '',
      ].join('\n'),
    )
    const c = await load()
    expect(c.editor.inline.keys).to.deep.equal({
      emacs: {'ctrl-r': 'history_search', 'ctrl-x ctrl-e': 'open_editor', 'ctrl-z': 'none'},
      vi_insert: {enter: 'newline', 'alt-enter': 'submit'},
    })
  })

  const bad: Array<[string, string, RegExp]> = [
    ['an unknown key spec', '[editor.inline.keys.emacs]\n"ctrl-r" = "history_search"\n"ctrl-foo" = "submit"\n', /config\.toml:3:1: editor\.inline\.keys\.emacs\.ctrl-foo: unknown key "foo" in "ctrl-foo"/],
    ['three keys', '[editor.inline.keys.emacs]\n"ctrl-x ctrl-e ctrl-s" = "submit"\n', /config\.toml:2:1: editor\.inline\.keys\.emacs\.'ctrl-x ctrl-e ctrl-s': .*has 3 keys/],
    ['an unknown action (with the nearest name)', '[editor.inline.keys.emacs]\n\n"ctrl-q" = "sumbit"\n', /config\.toml:3:1: editor\.inline\.keys\.emacs\.ctrl-q: unknown action "sumbit" \(did you mean "submit"\?\)/],
    ['an action that is not a string', '[editor.inline.keys.vi_normal]\nx = 3\n', /config\.toml:2:1: editor\.inline\.keys\.vi_normal\.x: expected string, got 3/],
    ['a vi action in the emacs table', '[editor.inline.keys.emacs]\n"ctrl-o" = "vi_delete_line"\n', /config\.toml:2:1: editor\.inline\.keys\.emacs\.ctrl-o: "vi_delete_line" is a vi action/],
    ['the same key twice', '[editor.inline.keys.emacs]\n"ctrl-r" = "undo"\n"Ctrl-R" = "redo"\n', /config\.toml:3:1: editor\.inline\.keys\.emacs\.Ctrl-R: the same key as "ctrl-r"/],
    ['an unknown table', '[editor.inline.keys.vim]\nx = "undo"\n', /config\.toml:1:1: editor\.inline\.keys\.vim: unknown key \(expected one of: emacs, vi_insert, vi_normal\)/],
    ['a key that shadows a default sequence', '[editor.inline.keys.vi_normal]\nx = "vi_delete_char"\nd = "vi_delete_char"\n', /config\.toml:3:1: editor\.inline\.keys\.vi_normal\.d: shadows the longer sequences "d d", "d w", "d e" and \d+ more .*bind them to "none" first/],
    ['a key that shadows its own sequence', '[editor.inline.keys.emacs]\n"ctrl-q ctrl-w" = "yank"\n"ctrl-q" = "submit"\n', /config\.toml:3:1: editor\.inline\.keys\.emacs\.ctrl-q: shadows the longer sequence "ctrl-q ctrl-w".*remove one of the two/],
  ]
  for (const [what, toml, message] of bad) {
    it(`refuses ${what}, naming the file, line and key`, async () => {
      writeFileSync(userFile, toml)
      const m = await loadError()
      expect(m).to.match(message)
      expect(m.startsWith(userFile)).to.equal(true)
    })
  }

  it('a key in a later layer that cuts off an earlier layer\'s sequence is refused in the later file', async () => {
    writeFileSync(userFile, '[editor.inline.keys.emacs]\n"ctrl-q ctrl-w" = "yank"\n')
    writeFileSync(wsFile, '# mine\n[editor.inline.keys.emacs]\n"ctrl-q" = "submit"\n')
    const m = await loadError()
    expect(m).to.match(/^.*ws\/\.jp\/config\.toml:3:1: editor\.inline\.keys\.emacs\.ctrl-q: shadows the longer sequence "ctrl-q ctrl-w"/)
  })

  it('a sequence in a later layer that an earlier layer\'s key cuts off is refused at the sequence', async () => {
    writeFileSync(userFile, '[editor.inline.keys.emacs]\n"ctrl-q" = "submit"\n')
    writeFileSync(wsFile, '[editor.inline.keys.emacs]\n"ctrl-q ctrl-w" = "yank"\n')
    const m = await loadError()
    expect(m).to.match(/ws\/\.jp\/config\.toml:2:1: editor\.inline\.keys\.emacs\.'ctrl-q ctrl-w': is cut off by "ctrl-q", bound alone in an earlier configuration layer; bind "ctrl-q" to "none" here/)
    // Doing what the message says fixes it.
    writeFileSync(wsFile, '[editor.inline.keys.emacs]\n"ctrl-q" = "none"\n"ctrl-q ctrl-w" = "yank"\n')
    expect((await load()).editor.inline.keys?.emacs).to.deep.equal({'ctrl-q': 'none', 'ctrl-q ctrl-w': 'yank'})
  })

  it('--cfg and JP_CFG_ set bindings (an inline table for a whole mode) and their errors name the source', async () => {
    const c = await load({cfgArgs: [`editor.inline.keys.vi_insert={enter = "newline", "alt-enter" = "submit"}`, `editor.inline.keys.emacs.'ctrl-o'=undo`]})
    expect(c.editor.inline.keys).to.deep.equal({vi_insert: {enter: 'newline', 'alt-enter': 'submit'}, emacs: {'ctrl-o': 'undo'}})
    const fromEnv = await load({env: {JP_CFG_EDITOR_INLINE_KEYS_VI_NORMAL: '{"ctrl-s" = "submit"}'}})
    expect(fromEnv.editor.inline.keys).to.deep.equal({vi_normal: {'ctrl-s': 'submit'}})
    expect(await loadError({cfgArgs: [`editor.inline.keys.emacs.'ctrl-o'=nope`]})).to.match(/^--cfg: editor\.inline\.keys\.emacs\.ctrl-o: unknown action "nope"/)
  })

  it('an untrusted workspace may set bindings (they run nothing)', async () => {
    writeFileSync(wsFile, '[editor.inline.keys.emacs]\n"ctrl-o" = "submit"\n[editor]\ncmd = "evil"\n')
    const ignored: string[][] = []
    const c = await loadConfig({cwd: dir, workspaceRoot: ws, env, workspaceTrusted: false, onIgnoredKeys: (k) => ignored.push(k)})
    expect(c.editor.inline.keys).to.deep.equal({emacs: {'ctrl-o': 'submit'}})
    expect(c.editor.cmd).to.equal(undefined)
    expect(ignored).to.deep.equal([['editor.cmd']])
  })

  it('parseConfigToml alone checks specs and actions (no merge needed)', async () => {
    try {
      await parseConfigToml('[editor.inline.keys.vi_insert]\n"j j" = "vi_normal_mod"\n', 'x.toml')
      throw new Error('expected a ConfigError')
    } catch (e) {
      expect((e as Error).message).to.equal('x.toml:2:1: editor.inline.keys.vi_insert.\'j j\': unknown action "vi_normal_mod" (did you mean "vi_normal_mode"?); the actions are listed under "Key bindings" in docs/configuration.md')
    }
  })
})
