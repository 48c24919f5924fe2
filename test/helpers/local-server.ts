// The local HTTP servers of tests and benches: listening on an unused port of
// 127.0.0.1, and closed without waiting on connections a client left open
// (a killed jp, a held response, keep-alive).
import type {Server} from 'node:http'
import type {AddressInfo} from 'node:net'

export interface LocalServer {
  /** `http://127.0.0.1:PORT` (no path). */
  url: string
  /** `url` + `/v1`: the base URL of an OpenAI-format provider. */
  baseUrl: string
  close(): Promise<void>
}

export async function listenLocal(server: Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    baseUrl: `${url}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
