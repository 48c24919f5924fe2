// A stored conversation written straight to disk (the files jp reads), for
// tests that need one without running a query first.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

/** Writes `.jp/conversations/ID/` under `root` with this metadata and these events; returns the directory. */
export function writeConversation(root: string, id: string, meta: Record<string, unknown>, events: unknown[] = []): string {
  const dir = join(root, '.jp', 'conversations', id)
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'metadata.json'), JSON.stringify(meta))
  writeFileSync(join(dir, 'events.json'), JSON.stringify(events))
  writeFileSync(join(dir, 'base_config.json'), '{}')
  return dir
}
