// What an end-to-end suite starts in a test and must take down after it,
// whether the test passed or not: runs (and the processes they left), local
// servers, temporary files. Call inside a `describe`; steps run newest first.
export interface Teardown {
  /** Any step (removing a temp file, killing a helper process). */
  add(step: () => unknown): void
  /** A run to dispose of; returned as given. */
  run<T extends {dispose(): void}>(run: T): T
  /** A server to close; returned as given. */
  server<T extends {close(): Promise<void>}>(server: T): T
}

export function teardownAfterEach(): Teardown {
  const steps: Array<() => unknown> = []
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step()
  })
  return {
    add: (step) => void steps.push(step),
    run: (run) => (steps.push(() => run.dispose()), run),
    server: (server) => (steps.push(() => server.close()), server),
  }
}
