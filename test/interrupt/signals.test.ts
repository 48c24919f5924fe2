import {expect} from 'chai'

import {EscalationPolicy, type SignalContext} from '../../src/lib/interrupt/escalation.js'
import {SignalRouter} from '../../src/lib/interrupt/signals.js'
import {ignoreSigintDuring} from '../../src/lib/process/sigint-guard.js'

const ctx = (now: number, over: Partial<SignalContext> = {}): SignalContext => ({
  now,
  hasHandler: true,
  interactive: true,
  sigintIgnored: false,
  ...over,
})

describe('EscalationPolicy (pure)', () => {
  it('first Ctrl+C notifies, a second within the cooldown shuts down, a third exits 130', () => {
    const p = new EscalationPolicy(2000)
    expect(p.decide('SIGINT', ctx(0))).to.deep.equal({type: 'notify'})
    expect(p.decide('SIGINT', ctx(1500))).to.deep.equal({type: 'shutdown', reason: 'SIGINT', exitCode: 130})
    expect(p.isShuttingDown).to.equal(true)
    expect(p.decide('SIGINT', ctx(60_000))).to.deep.equal({type: 'exit', exitCode: 130})
  })

  it('a second Ctrl+C after the cooldown notifies again, measured from the last notification', () => {
    const p = new EscalationPolicy(2000)
    expect(p.decide('SIGINT', ctx(0)).type).to.equal('notify')
    expect(p.decide('SIGINT', ctx(2001)).type).to.equal('notify')
    expect(p.decide('SIGINT', ctx(4002)).type).to.equal('notify')
    expect(p.decide('SIGINT', ctx(4500)).type).to.equal('shutdown')
  })

  it('the cooldown boundary is inclusive', () => {
    const p = new EscalationPolicy(2000)
    p.decide('SIGINT', ctx(100))
    expect(p.decide('SIGINT', ctx(2100)).type).to.equal('shutdown')
  })

  it('with no handler, or no terminal, Ctrl+C is a graceful shutdown', () => {
    expect(new EscalationPolicy(2000).decide('SIGINT', ctx(0, {hasHandler: false})).type).to.equal('shutdown')
    expect(new EscalationPolicy(2000).decide('SIGINT', ctx(0, {interactive: false})).type).to.equal('shutdown')
  })

  it('ignores Ctrl+C while an editor owns it, and does not count it', () => {
    const p = new EscalationPolicy(2000)
    expect(p.decide('SIGINT', ctx(0, {sigintIgnored: true}))).to.deep.equal({type: 'ignore'})
    expect(p.decide('SIGINT', ctx(10)).type).to.equal('notify')
  })

  it('SIGTERM and SIGHUP shut down gracefully; SIGQUIT exits 131', () => {
    expect(new EscalationPolicy(2000).decide('SIGTERM', ctx(0))).to.deep.equal({type: 'shutdown', reason: 'SIGTERM', exitCode: 143})
    expect(new EscalationPolicy(2000).decide('SIGHUP', ctx(0))).to.deep.equal({type: 'shutdown', reason: 'SIGHUP', exitCode: 129})
    expect(new EscalationPolicy(2000).decide('SIGQUIT', ctx(0))).to.deep.equal({type: 'exit', exitCode: 131})
  })

  it('during shutdown: Ctrl+C exits 130, a second SIGTERM exits 143, SIGHUP is ignored', () => {
    const p = new EscalationPolicy(2000)
    p.decide('SIGTERM', ctx(0))
    expect(p.decide('SIGHUP', ctx(1))).to.deep.equal({type: 'ignore'})
    expect(p.decide('SIGTERM', ctx(2))).to.deep.equal({type: 'exit', exitCode: 143})
    expect(p.decide('SIGINT', ctx(3))).to.deep.equal({type: 'exit', exitCode: 130})
  })
})

describe('SignalRouter (driven with handle(), no process signals)', () => {
  function make(cooldownSecs = 2) {
    let now = 0
    const exits: number[] = []
    const notices: string[] = []
    const router = new SignalRouter({
      escalationCooldownSecs: cooldownSecs,
      isInteractive: () => true,
      now: () => now,
      exit: (code) => exits.push(code),
      notice: (l) => notices.push(l),
    })
    return {router, exits, notices, tick: (ms: number) => (now += ms)}
  }

  it('notifies only the top of the LIFO stack, and pop() removes exactly that listener', () => {
    const {router, tick} = make()
    const heard: string[] = []
    const popTurn = router.push(() => heard.push('turn'))
    const popStream = router.push(() => heard.push('streaming'))
    router.handle('SIGINT')
    popStream()
    tick(5000)
    router.handle('SIGINT')
    const popTool = router.push(() => heard.push('tool'))
    popTurn() // out of order: the tool listener stays on top
    tick(5000)
    router.handle('SIGINT')
    popTool()
    expect(heard).to.deep.equal(['streaming', 'turn', 'tool'])
    expect(router.depth).to.equal(0)
  })

  it('graceful shutdown aborts shutdownSignal, runs the steps in order, then exits with the signal code', async () => {
    const {router, exits, tick} = make()
    const steps: string[] = []
    router.push(() => steps.push('notified'))
    router.shutdownSignal.addEventListener('abort', () => steps.push(`aborted:${(router.shutdownSignal.reason as {cause: string}).cause}`))
    router.onShutdown(async () => {
      await new Promise((r) => setTimeout(r, 5))
      steps.push('commit partial output')
    })
    router.onShutdown(() => {
      steps.push('save conversation')
    })
    const removed = router.onShutdown(() => {
      steps.push('removed step')
    })
    removed()
    router.handle('SIGINT')
    tick(100)
    expect(router.handle('SIGINT').type).to.equal('shutdown')
    expect(exits).to.deep.equal([])
    await router.shutdown() // joins the running shutdown
    expect(steps).to.deep.equal(['notified', 'aborted:SIGINT', 'commit partial output', 'save conversation'])
    expect(exits).to.deep.equal([130])
  })

  it('a failing shutdown step is reported and the others still run', async () => {
    const {router, exits, notices} = make()
    const steps: string[] = []
    router.onShutdown(() => {
      throw new Error('disk full')
    })
    router.onShutdown(() => {
      steps.push('second')
    })
    await router.shutdown(0)
    expect(notices).to.include('jp: shutdown step failed: disk full')
    expect(steps).to.deep.equal(['second'])
    expect(exits).to.deep.equal([0])
  })

  it('shutdown() on request (Ctrl+C at the menu) makes the next Ctrl+C exit 130 at once', async () => {
    const {router, exits} = make()
    router.push(() => {})
    router.onShutdown(() => new Promise(() => {})) // never finishes
    void router.shutdown()
    expect(router.shutdownSignal.aborted).to.equal(true)
    expect(router.handle('SIGINT')).to.deep.equal({type: 'exit', exitCode: 130})
    expect(exits).to.deep.equal([130])
  })

  it('the watchdog ends a shutdown whose step never finishes: one notice, the shutdown\'s exit code', async () => {
    const exits: number[] = []
    const notices: string[] = []
    const router = new SignalRouter({isInteractive: () => true, exit: (code) => exits.push(code), notice: (l) => notices.push(l), shutdownTimeoutMs: 50})
    router.onShutdown(() => new Promise(() => {})) // hangs
    void router.shutdown(130)
    await new Promise((r) => setTimeout(r, 20))
    expect(exits, 'not before the watchdog').to.deep.equal([])
    await new Promise((r) => setTimeout(r, 80))
    expect(exits).to.deep.equal([130])
    expect(notices).to.deep.equal([
      'Shutting down: saving what arrived (Ctrl+C again to quit now; jp quits anyway in 1 s)...',
      'jp: the shutdown did not finish within 1 s; quitting now.',
    ])
  })

  it('ignores Ctrl+C while ignoreSigintDuring runs (an editor owns the terminal)', async () => {
    const {router} = make()
    let heard = 0
    router.push(() => heard++)
    const decision = await ignoreSigintDuring(async () => router.handle('SIGINT'))
    expect(decision.type).to.equal('ignore')
    expect(heard).to.equal(0)
    router.handle('SIGINT')
    expect(heard).to.equal(1)
  })

  it('install() takes the process signals and uninstall() gives them back', () => {
    const {router} = make()
    const before = process.listenerCount('SIGTERM')
    router.install()
    expect(process.listenerCount('SIGTERM')).to.equal(before + 1)
    expect(process.listenerCount('SIGINT')).to.be.greaterThan(0)
    router.uninstall()
    expect(process.listenerCount('SIGTERM')).to.equal(before)
  })
})
