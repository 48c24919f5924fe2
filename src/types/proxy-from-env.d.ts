// proxy-from-env ships no types (2.x parses with the WHATWG URL API: no url.parse deprecation warning on Node 22+).
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from HTTP(S)_PROXY / ALL_PROXY / NO_PROXY (and npm_config_*), or ''. */
  export function getProxyForUrl(url: string | URL): string
}
