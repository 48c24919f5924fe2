// An unknown command: the usage error that names the word jp does not know,
// suggests the nearest command at that level, and points at the help of the
// nearest level it does know (`jp conversation frob` → `jp conversation
// --help`). Topic aliases (`c` for `conversation`) count as known levels.
import type {Interfaces} from '@oclif/core'
import {nearest} from '../text/nearest.js'
import {quote, typedCommand, UsageError} from './usage-error.js'

/**
 * Topic aliases derived from the commands' aliases: `conversation:ls` with the
 * alias `c:ls` makes `c` an alias of the topic `conversation`.
 */
export function topicAliases(config: Interfaces.Config): Map<string, string> {
  const aliases = new Map<string, string>()
  for (const command of config.commands) {
    const id = command.id.split(':')
    for (const alias of command.aliases ?? []) {
      const words = alias.split(':')
      if (words.length !== id.length || words.length < 2 || words.at(-1) !== id.at(-1)) continue
      const from = words.slice(0, -1).join(':')
      const to = id.slice(0, -1).join(':')
      if (from !== to && !config.findTopic(from)) aliases.set(from, to)
    }
  }
  return aliases
}

/** The usage error for `id` (oclif's form, `conversation:frob`), which names no command or topic. */
export function unknownCommand(id: string, config: Interfaces.Config): UsageError {
  const words = id.split(':').filter(Boolean)
  const aliases = topicAliases(config)
  const isLevel = (name: string) => config.findTopic(name) !== undefined || aliases.has(name)
  // The longest prefix that is a topic (or a topic's alias): the word after it is the unknown one.
  let known = 0
  while (known < words.length - 1 && isLevel(words.slice(0, known + 1).join(':'))) known += 1
  const parent = words.slice(0, known).join(':')
  const word = words[known] ?? ''
  const children = new Set<string>()
  const prefix = parent ? `${parent}:` : ''
  const names = [...config.commands.filter((c) => !c.hidden).map((c) => c.id), ...config.topics.filter((t) => !t.hidden).map((t) => t.name), ...aliases.keys()]
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const [child] = name.slice(prefix.length).split(':')
    if (child) children.add(child)
  }
  const typed = typedCommand([...words.slice(0, known + 1)].join(':'))
  const hint = nearest(word, children)
  const suggestion = hint ? `; did you mean ${quote(typedCommand(prefix + hint))}?` : ''
  return new UsageError(`unknown command ${quote(typed)}${suggestion}`, typedCommand(parent))
}
