// `jp completion bash|zsh|fish`: a completion script made from the commands
// oclif knows (jp's, their aliases, installed plugins'), so it never runs jp
// to complete. It completes command and topic words, each command's flags,
// the values of a flag with options (`--format auto|text|json`), directories
// for a DIR flag and files for a PATH one, and a first argument with options
// (`jp completion SHELL`). What a script holds is data from jp's own
// commands and installed plugins, and a plugin's is untrusted: a command id
// `$(touch X)` would run when bash's `compgen -W` or fish's `complete -a`
// expands its word list. So a word is offered only when it is plain
// (COMPLETABLE_WORD: nothing a shell expands), every description is
// sanitized and quoted, and bash matches words itself rather than through
// `compgen -W` (issue 42).
//
// (Not @oclif/plugin-autocomplete: it writes cache files and rc-file hooks,
// has no fish, and its 3.x line is the last for Node 20.)

export type Shell = 'bash' | 'zsh' | 'fish'
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish']

export interface CompletionFlag {
  name: string
  char?: string
  summary: string
  /** undefined: a switch; a list: its options; 'dir' / 'file': a path; 'any': free text. */
  value?: 'any' | 'dir' | 'file' | readonly string[]
}

export interface CompletionNode {
  /** The words that reach it: `['conversation', 'ls']`; `[]` is jp itself. */
  words: string[]
  summary: string
  flags: CompletionFlag[]
  /** The options of its first argument, if it has a fixed set. */
  argOptions?: readonly string[]
}

import {sanitizeUntrusted} from '../text/untrusted.js'

/**
 * A word a completion script may hold: letters, digits and `._:@%+=,/-`,
 * not starting with a dash (a flag is written with its dashes by the
 * script). Nothing here is expanded by bash, zsh or fish: no `$`, quotes,
 * backslash, parentheses, braces, globs, `~`, space or control character.
 */
const COMPLETABLE_WORD = /^[A-Za-z0-9_.@%+=,/][A-Za-z0-9_.:@%+=,/-]*$/
export const isCompletableWord = (word: string): boolean => COMPLETABLE_WORD.test(word)

type FlagInfo = {char?: string; type?: string; hidden?: boolean; allowNo?: boolean; options?: readonly string[]; helpValue?: string | string[]; summary?: string; description?: string}

/** What completion needs of an oclif command (its manifest entry). */
export interface CommandInfo {
  id: string
  hidden?: boolean
  summary?: string
  description?: string
  flags?: Record<string, FlagInfo>
  args?: Record<string, {options?: readonly string[]}>
}

/**
 * The command tree: every visible command and alias, and the topics above
 * them (`topics`: name → summary). `rootFlags` are the flags jp takes before
 * the command (bin/run.js moves them behind it).
 */
export function completionTree(commands: readonly CommandInfo[], topics: ReadonlyMap<string, string>, rootFlags: Record<string, FlagInfo> = {}): CompletionNode[] {
  const nodes = new Map<string, CompletionNode>()
  const key = (words: string[]) => words.join(' ')
  const ensure = (words: string[], summary: string) => {
    if (!nodes.has(key(words))) nodes.set(key(words), {words, summary, flags: []})
    return nodes.get(key(words))!
  }
  ensure([], '').flags = completionFlags(rootFlags)
  for (const command of commands) {
    if (command.hidden) continue
    const words = command.id.split(':')
    if (!words.every(isCompletableWord)) continue
    for (let i = 1; i < words.length; i++) ensure(words.slice(0, i), topics.get(words.slice(0, i).join(':')) ?? '')
    const node = ensure(words, firstLine(command.summary ?? command.description ?? ''))
    node.summary ||= firstLine(command.summary ?? command.description ?? '')
    node.flags = completionFlags(command.flags ?? {})
    node.argOptions = Object.values(command.args ?? {})[0]?.options?.filter(isCompletableWord)
  }
  return [...nodes.values()].sort((a, b) => key(a.words).localeCompare(key(b.words)))
}

function completionFlags(flags: Record<string, FlagInfo>): CompletionFlag[] {
  return Object.entries(flags)
    .filter(([name, f]) => !f.hidden && isCompletableWord(name) && (f.char === undefined || isCompletableWord(f.char)))
    .flatMap(([name, f]) => {
      const summary = firstLine(f.summary ?? f.description ?? '')
      const flag = {name, char: f.char, summary, value: flagValue(f)}
      return f.allowNo ? [flag, {name: `no-${name}`, summary}] : [flag]
    })
}

function flagValue(f: FlagInfo): CompletionFlag['value'] {
  if (f.type === 'boolean') return undefined
  const options = f.options?.filter(isCompletableWord)
  if (options?.length) return options
  const help = String(f.helpValue ?? '')
  if (/\bDIR\b/.test(help)) return 'dir'
  if (/\b(PATH|FILE)\b/.test(help)) return 'file'
  return 'any'
}

/** A description's first line, its control and format characters made visible (never raw in a script). */
const firstLine = (text: string) => sanitizeUntrusted(text.split('\n')[0].trim())

/** The words one level below `node`. */
function children(tree: readonly CompletionNode[], node: CompletionNode): CompletionNode[] {
  return tree.filter((n) => n.words.length === node.words.length + 1 && node.words.every((w, i) => n.words[i] === w))
}

export function completionScript(shell: Shell, tree: readonly CompletionNode[]): string {
  switch (shell) {
    case 'bash':
      return bashScript(tree)
    case 'zsh':
      return zshScript(tree)
    case 'fish':
      return fishScript(tree)
    default: {
      const never: never = shell
      throw new Error(`no completion for ${String(never)}`)
    }
  }
}

/** POSIX single quotes (bash and zsh). */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** `case` arms over the command path, shared by bash and zsh. */
function caseArms(tree: readonly CompletionNode[], body: (node: CompletionNode) => string | undefined): string {
  return tree
    .map((node) => [node, body(node)] as const)
    .filter(([, text]) => text !== undefined)
    .map(([node, text]) => `    ${sq(node.words.join(' '))}) ${text} ;;`)
    .join('\n')
}

function flagWords(node: CompletionNode): string[] {
  return node.flags.flatMap((f) => [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])])
}

/** For each command, `FLAG KIND` lines: how the word after a flag is completed. */
function valueKinds(node: CompletionNode): string[] {
  return node.flags.flatMap((f) => {
    if (f.value === undefined) return []
    const kind = typeof f.value === 'string' ? f.value : `options:${f.value.join(' ')}`
    return [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])].map((w) => `${w} ${kind}`)
  })
}

/**
 * The walk both POSIX shells share: the command path is the longest run of
 * words (flags and their values skipped) that names a node; then the word
 * being completed is a flag's value, a flag, a child word, or an argument
 * with options.
 */
function posixFunctions(tree: readonly CompletionNode[]): string {
  return `_jp_children() {
  case "$1" in
${caseArms(tree, (n) => (children(tree, n).length ? `echo ${sq(children(tree, n).map((c) => c.words.at(-1)).join(' '))}` : undefined))}
  esac
}
_jp_flags() {
  case "$1" in
${caseArms(tree, (n) => (n.flags.length ? `echo ${sq(flagWords(n).join(' '))}` : undefined))}
  esac
}
_jp_arg_options() {
  case "$1" in
${caseArms(tree, (n) => (n.argOptions?.length ? `echo ${sq(n.argOptions.join(' '))}` : undefined))}
  esac
}
# "$1" = command path, "$2" = a flag: how its value completes (options:..., dir, file, any), or nothing for a switch.
_jp_value_kind() {
  local line
  while IFS= read -r line; do
    [ "\${line%% *}" = "$2" ] && { echo "\${line#* }"; return; }
  done <<EOF
$(_jp_value_table "$1")
EOF
}
_jp_value_table() {
  case "$1" in
${caseArms(tree, (n) => (valueKinds(n).length ? `printf '%s\\n' ${valueKinds(n).map(sq).join(' ')}` : undefined))}
  esac
}
# "$@" = the words before the cursor (without jp): prints the command path.
_jp_path() {
  local path="" skip="" w
  for w in "$@"; do
    if [ -n "$skip" ]; then skip=""; continue; fi
    case "$w" in
      --) break ;;
      --*=*) continue ;;
      -*) [ -n "$(_jp_value_kind "$path" "$w")" ] && skip=1; continue ;;
    esac
    case " $(_jp_children "$path") " in
      *" $w "*) path="\${path:+$path }$w" ;;
      *) break ;;
    esac
  done
  printf '%s' "$path"
}`
}

function bashScript(tree: readonly CompletionNode[]): string {
  return `# jp completion for bash. Add to ~/.bashrc:  source <(jp completion bash)
${posixFunctions(tree)}
_jp() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path kind
  ((COMP_CWORD > 1)) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  path=$(_jp_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}")
  COMPREPLY=()
  case "$prev" in
    -*) kind=$(_jp_value_kind "$path" "$prev") ;;
  esac
  case "$kind" in
    options:*) _jp_add_matching "$cur" "\${kind#options:}"; return ;;
    dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    any) return ;;
  esac
  if [[ $cur == -* ]]; then
    _jp_add_matching "$cur" "$(_jp_flags "$path")"
  else
    _jp_add_matching "$cur" "$(_jp_children "$path") $(_jp_arg_options "$path")"
  fi
}
# Adds each word of "$2" that starts with "$1" to COMPREPLY: split without
# globbing, compared literally, never expanded (compgen -W would expand it).
_jp_add_matching() {
  local w
  local -a list
  read -r -a list <<< "$2"
  for w in "\${list[@]}"; do
    [[ $w == "$1"* ]] && COMPREPLY+=("$w")
  done
}
complete -o default -F _jp jp
`
}

function zshScript(tree: readonly CompletionNode[]): string {
  // zsh shows descriptions: children and flags as `word:description` pairs.
  const described = (node: CompletionNode) => {
    const kids = children(tree, node).map((c) => `${c.words.at(-1)}:${c.summary}`)
    return kids.length ? `reply=(${kids.map((k) => sq(k.replace(/\\/g, '\\\\'))).join(' ')})` : undefined
  }
  const flagDescriptions = (node: CompletionNode) => {
    const items = node.flags.flatMap((f) => [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])].map((w) => `${w.replace(/:/g, '\\:')}:${f.summary}`))
    return items.length ? `reply=(${items.map((i) => sq(i.replace(/\\/g, '\\\\'))).join(' ')})` : undefined
  }
  return `#compdef jp
# jp completion for zsh. Add to ~/.zshrc (after compinit):  source <(jp completion zsh)
${posixFunctions(tree)}
_jp_described_children() {
  case "$1" in
${caseArms(tree, described)}
  esac
}
_jp_described_flags() {
  case "$1" in
${caseArms(tree, flagDescriptions)}
  esac
}
_jp() {
  local cur="\${words[CURRENT]}" prev="" path kind
  local -a reply
  (( CURRENT > 2 )) && prev="\${words[CURRENT-1]}"
  path=$(_jp_path "\${(@)words[2,CURRENT-1]}")
  case "$prev" in
    -*) kind=$(_jp_value_kind "$path" "$prev") ;;
  esac
  case "$kind" in
    options:*) compadd -- \${=kind#options:}; return ;;
    dir) _files -/; return ;;
    file) _files; return ;;
    any) return 1 ;;
  esac
  if [[ $cur == -* ]]; then
    _jp_described_flags "$path"
    (( \${#reply} )) && _describe -t flags 'flag' reply
    return
  fi
  _jp_described_children "$path"
  (( \${#reply} )) && _describe -t commands 'command' reply
  local options="$(_jp_arg_options "$path")"
  [[ -n $options ]] && compadd -- \${=options}
  return 0
}
compdef _jp jp
`
}

/** fish single quotes: backslash and quote escaped. */
const fq = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

function fishScript(tree: readonly CompletionNode[]): string {
  const lines: string[] = []
  for (const node of tree) {
    const at = `-n ${fq(`__jp_at ${fq(node.words.join(' '))}`)}`
    for (const child of children(tree, node)) lines.push(`complete -c jp -f ${at} -a ${fq(child.words.at(-1)!)} -d ${fq(child.summary)}`)
    for (const option of node.argOptions ?? []) lines.push(`complete -c jp -f ${at} -a ${fq(option)}`)
    for (const f of node.flags) {
      const names = `-l ${fq(f.name)}${f.char ? ` -s ${fq(f.char)}` : ''}`
      const value =
        f.value === undefined ? '' : f.value === 'dir' ? " -x -a '(__fish_complete_directories)'" : f.value === 'file' ? ' -r -F' : f.value === 'any' ? ' -x' : ` -x -a ${fq(f.value.join(' '))}`
      lines.push(`complete -c jp ${at} ${names}${value} -d ${fq(f.summary)}`)
    }
  }
  const nodes = tree.map((n) => fq(n.words.join(' '))).join(' ')
  const valueFlags = tree.flatMap((n) => valueKinds(n).map((line) => fq(`${n.words.join(' ')}|${line.split(' ')[0]}`))).join(' ')
  return `# jp completion for fish. Install:  jp completion fish > ~/.config/fish/completions/jp.fish
set -g __jp_nodes ${nodes}
set -g __jp_value_flags ${valueFlags}
# The command path of the words before the cursor (flags and their values skipped).
function __jp_path
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l skip 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case '--'
                break
            case '--*=*'
                continue
            case '-*'
                contains -- "$path|$w" $__jp_value_flags; and set skip 1
                continue
        end
        set -l next (string trim -- "$path $w")
        contains -- $next $__jp_nodes; or break
        set path $next
    end
    echo $path
end
function __jp_at
    set -l path (__jp_path)
    test "$path" = "$argv[1]"
end
complete -c jp -f
${lines.join('\n')}
`
}
