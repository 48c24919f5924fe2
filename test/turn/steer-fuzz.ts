// One round of the steering fuzzer (issue 36), at the decision-logic seam:
// the real turn loop (runTurns), the real tool coordinator, the real signal
// router and the real queued-reply slot over a draft file; a scripted model,
// tools and tool prompts; and a user who queues and edits replies, and
// presses Ctrl+C, at random moments. Time is counted in ticks (each an
// event-loop turn): every await of the model, the tools and the prompts is
// a tick, and the user's actions fire at their ticks. The invariants are
// checked against what the model was sent (the request log), the stored
// events (as persisted, at every write: a crash may come at any of them)
// and the draft file.
import {mkdtempSync, readFileSync, rmSync, existsSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import fc from 'fast-check'
import type {ConversationEvent} from '../../src/lib/conversation/events.js'
import {SignalRouter} from '../../src/lib/interrupt/signals.js'
import type {ChatMessage, ChatRequest, Provider, StreamEvent} from '../../src/lib/llm/types.js'
import {QueuedReplyDraft} from '../../src/lib/query/reply-slot.js'
import type {ToolPrompter} from '../../src/lib/tool/prompter.js'
import {runTurns, type RunOutcome, type TurnQueue} from '../../src/lib/turn/turn-loop.js'
import {quietPrinter} from './steer-harness.js'

export type Ending = 'done' | 'stop-stream' | 'abort-stream' | 'error' | 'shutdown' | 'stop-at-prompt'
export interface Round {
  delivery: 'next_step' | 'turn_end'
  /** Tool calls per response; the last response answers with text only. */
  steps: number[]
  pieces: number
  ask: boolean
  askResult: boolean
  /** How long (ticks) a prompt stays open, a tool runs. */
  promptTicks: number
  toolTicks: number
  /** The user's queue actions: at tick `at`, a `Queue:` prompt open `typing` ticks, then submitted. */
  queues: Array<{at: number; typing: number}>
  ending: Ending
  /** The request (or, for shutdown, the tick) where the ending strikes. */
  endAt: number
}

export const roundArb: fc.Arbitrary<Round> = fc.record({
  delivery: fc.constantFrom('next_step' as const, 'next_step' as const, 'turn_end' as const),
  steps: fc.array(fc.integer({min: 1, max: 2}), {minLength: 0, maxLength: 3}),
  pieces: fc.integer({min: 1, max: 4}),
  ask: fc.boolean(),
  askResult: fc.boolean(),
  promptTicks: fc.integer({min: 0, max: 6}),
  toolTicks: fc.integer({min: 0, max: 6}),
  queues: fc.array(fc.record({at: fc.integer({min: 0, max: 50}), typing: fc.integer({min: 0, max: 8})}), {minLength: 0, maxLength: 4}),
  ending: fc.constantFrom<Ending>('done', 'done', 'stop-stream', 'abort-stream', 'error', 'shutdown', 'stop-at-prompt'),
  endAt: fc.integer({min: 0, max: 60}),
})

export interface RoundResult {
  violations: string[]
  outcome: RunOutcome | undefined
  requests: number
  delivered: number
  nextStep: number
}

const abortError = () => Object.assign(new Error('aborted'), {name: 'AbortError'})

/** Runs one round; returns what broke an invariant (empty: nothing). */
export async function runRound(round: Round): Promise<RoundResult> {
  const dir = mkdtempSync(join(tmpdir(), 'jp-steer-fuzz-'))
  const violations: string[] = []
  const fail = (what: string) => violations.push(what)
  let tick = 0
  let promptOpen = false
  let composing = false
  const due: Array<{at: number; run: () => void}> = []
  const router = new SignalRouter({escalationCooldownSecs: 2, isInteractive: () => true, now: () => 1000 + tick * 1000, exit: () => {}, notice: () => {}, shutdownTimeoutMs: 60_000})
  // A submitted reply's write to the draft completes within its tick (the file system is no clock here).
  let writing: Promise<void> | undefined
  const step = async () => {
    await new Promise((r) => setImmediate(r))
    while (writing) await writing
    tick++
    for (const d of due.filter((x) => x.at <= tick)) {
      due.splice(due.indexOf(d), 1)
      d.run()
    }
  }
  const ticks = async (n: number) => {
    for (let i = 0; i < n; i++) await step()
  }

  const draftPath = join(dir, 'QUERY_MESSAGE.md')
  const slot = await QueuedReplyDraft.open(draftPath, 'go')
  const draft = () => (existsSync(draftPath) ? readFileSync(draftPath, 'utf8') : '')
  // Every text the user submitted, and the versions that left the slot to be sent.
  let n = 0
  const pendingWork: Promise<void>[] = []
  for (const q of round.queues) {
    due.push({
      at: q.at,
      run: () => {
        if (composing) return
        composing = true
        // The prompt opens seeded with what is queued now; what is typed is added to it.
        const before = slot.text
        pendingWork.push(
          (async () => {
            await ticks(q.typing)
            const text = before === undefined ? `r${++n}` : `${before}|r${++n}`
            const write = slot.set(text).finally(() => {
              composing = false
              writing = undefined
            })
            writing = write
            await write
          })(),
        )
      },
    })
  }
  if (round.ending === 'shutdown') due.push({at: round.endAt, run: () => void router.shutdown()})

  let taken: string | undefined
  const persisted: ConversationEvent[][] = []
  const queue: TurnQueue = {
    pending: () => slot.text,
    take: () => slot.take(),
    armTyping: () => () => {},
    idle: async () => {
      while (composing) await step()
    },
    countdown: async () => 'send',
    composing: () => composing,
    delivery: round.delivery,
    takeForStep: () => {
      if (promptOpen) fail(`taken at tick ${tick} while a tool prompt was open`)
      if (composing) fail(`taken at tick ${tick} while the Queue: prompt was open`)
      taken = slot.takeForStep()
      return taken
    },
    // A crash right after this must not lose it: the draft lets go only of what is stored.
    delivered: () => {
      if (taken !== undefined && !stored(persisted.at(-1) ?? []).some((s) => s.text === taken)) fail(`the draft let go of ${taken} before it was stored`)
      return slot.delivered()
    },
    restore: (text) => slot.restore(text),
  }

  // The model: one response per request, as scripted.
  const requests: ChatMessage[][] = []
  let responses = 0
  const provider: Provider = {
    name: 'fuzz',
    stream: (req: ChatRequest, signal: AbortSignal) =>
      (async function* (): AsyncGenerator<StreamEvent> {
        if (promptOpen) fail('a request was sent while a tool prompt was open')
        requests.push(structuredClone(req.messages))
        const r = responses++
        for (let p = 0; p < round.pieces; p++) {
          await step()
          if (signal.aborted) throw abortError()
          yield {type: 'text', text: `a${r}.${p} `}
          if (p === 0 && round.endAt % (round.steps.length + 1) === r) {
            if (round.ending === 'error') throw new Error('the model failed')
            if (round.ending === 'stop-stream' || round.ending === 'abort-stream') router.handle('SIGINT')
          }
        }
        const calls = round.steps[r] ?? 0
        for (let c = 0; c < calls; c++) yield {type: 'tool_call', id: `c${r}_${c}`, name: 't', arguments: {}}
        yield {type: 'finish', reason: calls > 0 ? 'tool_use' : 'stop'}
      })(),
  }

  const events: ConversationEvent[] = []
  const interrupts = {
    handleStreamingInterrupt: async () => {
      await step()
      return round.ending === 'abort-stream' ? {type: 'abort'} : {type: 'stop'}
    },
    handleTurnInterrupt: async () => ({type: 'continue'}),
    handleToolInterrupt: async () => ({type: 'continue'}),
  }
  const prompter = {
    promptPermission: async (_name: string, args: unknown) => {
      promptOpen = true
      await ticks(round.promptTicks)
      promptOpen = false
      if (round.ending === 'stop-at-prompt' && round.endAt % Math.max(1, round.steps.length) === responses - 1) return {type: 'interrupted', exit: {type: 'stop'}}
      return {type: 'run', args, remember: false}
    },
    reviewResult: async (_name: string, content: string) => {
      promptOpen = true
      await ticks(round.promptTicks)
      promptOpen = false
      return {deliver: true, content}
    },
  } as unknown as ToolPrompter

  let outcome: RunOutcome | undefined
  try {
    outcome = await runTurns('go', {
      provider,
      model: 'm',
      tools: [{name: 't', description: 't', parameters: {type: 'object', properties: {}}}],
      toolConfigs: {t: {command: 't', run: round.ask ? 'ask' : 'unattended', result: round.askResult ? 'ask' : 'unattended'}},
      enabledTools: new Set(['t']),
      explicitTools: new Set(),
      runTool: async (_call, _args, signal) => {
        await ticks(round.toolTicks)
        if (signal.aborted) return {content: 'cancelled', isError: true}
        return {content: 'ok', isError: false}
      },
      events,
      persist: async () => {
        persisted.push(structuredClone(events))
        // (A reply whose submit is still being written is not queued yet: its prompt has not closed.)
        if (!composing) checkNotLost(persisted.at(-1)!, slot, draft(), fail, 'at a write')
      },
      printer: quietPrinter(),
      router,
      interactive: {interrupts: interrupts as never, prompter},
      queue,
    })
  } catch (error) {
    fail(`the run threw: ${String(error)}`)
  }
  await Promise.all(pendingWork)
  // What `jp query` does after the run (query/report.ts): the draft lets go of a sent reply once its turn ended well.
  if (outcome?.type === 'done' && !outcome.kept) await slot.sent()
  if (outcome?.type === 'failed' && outcome.unsent) await slot.keepUnsent(outcome.unsent)
  checkEnd(events, requests, slot, draft(), round, outcome, fail)
  // Delivered at a step of a turn then discarded (`a`): not lost, the draft has it.
  const ever = new Set(persisted.flatMap((p) => stored(p).map((x) => x.text)))
  for (const t of ever) if (!stored(events).some((x) => x.text === t) && !draft().includes(t)) fail(`${t} was delivered, then dropped with its turn and not kept in the draft`)
  rmSync(dir, {recursive: true, force: true})
  const delivered = events.filter((e) => e.type === 'chat_request' && e.queued !== undefined).length
  const nextStep = events.filter((e) => e.type === 'chat_request' && e.queued === 'next_step').length
  return {violations, outcome, requests: requests.length, delivered, nextStep}
}

/** The queued replies stored in `events`, in order. */
function stored(events: readonly ConversationEvent[]): Array<{text: string; queued: string}> {
  return events.flatMap((e) => (e.type === 'chat_request' && e.queued !== undefined ? [{text: String(e.content), queued: String(e.queued)}] : []))
}

/** Never lost: what the slot holds is in the draft file, at any moment a crash could freeze. */
function checkNotLost(events: readonly ConversationEvent[], slot: QueuedReplyDraft, draft: string, fail: (w: string) => void, when: string): void {
  const text = slot.text
  if (text !== undefined && !draft.includes(text) && !stored(events).some((s) => s.text === text)) fail(`${when}: the queued reply ${text} is neither in the draft nor stored`)
}

function checkEnd(
  events: readonly ConversationEvent[],
  requests: ChatMessage[][],
  slot: QueuedReplyDraft,
  draft: string,
  round: Round,
  outcome: RunOutcome | undefined,
  fail: (w: string) => void,
): void {
  const replies = stored(events)
  // Exactly once: no typed piece (rN) stored in two replies (an edit of a sent reply would send it again).
  const texts = replies.map((r) => r.text)
  const pieces = texts.flatMap((t) => t.split('|'))
  for (const [i, p] of pieces.entries()) if (pieces.indexOf(p) !== i) fail(`${p} stored twice: ${texts.join(', ')}`)
  // Exactly once on the wire: in each request at most once, and once sent, in every later request of the run.
  let seenIn = new Set<string>()
  for (const [i, messages] of requests.entries()) {
    const users = messages.filter((m) => m.role === 'user').map((m) => m.content)
    const now = new Set<string>()
    for (const t of texts) {
      const count = users.filter((u) => u === t).length
      if (count > 1) fail(`${t} sent ${count} times in request ${i}`)
      if (count === 1) now.add(t)
    }
    for (const t of seenIn) if (!now.has(t) && outcome?.type !== 'aborted') fail(`${t} vanished from request ${i}`)
    seenIn = now
    // Next-step placement: right after the tool results (or a reply that followed them).
    for (const [j, m] of messages.entries()) {
      const r = replies.find((x) => x.text === m.content && m.role === 'user')
      if (r?.queued === 'next_step' && !['tool', 'user'].includes(messages[j - 1]?.role ?? '')) fail(`${r.text} sent after ${messages[j - 1]?.role}, not after the tool results`)
    }
  }
  if (round.delivery === 'turn_end' && replies.some((r) => r.queued === 'next_step')) fail('turn_end delivered at a step')
  // Never lost: what is still queued (or was sent in a turn that did not end well, or discarded with it) is the draft.
  if (slot.text !== undefined && !draft.includes(slot.text)) fail(`${slot.text} still queued but not in the draft`)
  if (outcome?.type === 'aborted') {
    for (const t of texts) if (!draft.includes(t)) fail(`${t} discarded with the turn and not in the draft`)
  }
  if (outcome?.type === 'done' && !outcome.kept && slot.text !== undefined) fail(`the run ended with ${slot.text} still queued`)
}
