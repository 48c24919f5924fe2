// The one place the MCP SDK is loaded. It is large (zod, ajv, and its server
// side pulls express and hono) and is not in jp's bundle: it is imported from
// node_modules when a server is about to start, never for `jp --help` or a
// query without servers (test/startup/lazy-imports.test.ts).
export async function loadSdk() {
  const [client, http, ajv] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ])
  return {Client: client.Client, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport, AjvJsonSchemaValidator: ajv.AjvJsonSchemaValidator}
}

export type Sdk = Awaited<ReturnType<typeof loadSdk>>
