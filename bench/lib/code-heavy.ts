// Code- and table-heavy answers, as models write them when asked to fix,
// compare or set something up (issue 35): most blocks are code (Python,
// TypeScript, Go with its tabs, Rust, SQL, shell, YAML, a Makefile, JSON),
// several tables (a wide one of numbers with units), a few wide characters
// and trailing spaces. Shared by the renderer's benches (bench/markdown*.ts)
// and its tests (the byte-identity property, the copy test).

/** Whole answers, written out; each is realistic on its own. */
export const CODE_HEAVY_ANSWERS: readonly string[] = [
  `The timeout comes from the pool: every request waits for a free connection. Raise the pool size and bound the wait:

\`\`\`python
import asyncio
import httpx

LIMITS = httpx.Limits(max_connections=50, max_keepalive_connections=20)


async def fetch_all(urls: list[str], *, timeout: float = 10.0) -> list[bytes]:
    """Fetch every URL concurrently; the bodies come back in order."""
    async with httpx.AsyncClient(limits=LIMITS, timeout=timeout) as client:
        responses = await asyncio.gather(*(client.get(u) for u in urls), return_exceptions=True)
    return [r.content if isinstance(r, httpx.Response) else b"" for r in responses]
\`\`\`

Then run it against the staging host:

\`\`\`sh
$ export API_BASE=https://staging.example.com/api/v2
$ python -m fetcher --urls urls.txt --concurrency 50 --timeout 10 --retries 3 --log-level debug --output results/$(date +%Y%m%d-%H%M%S).jsonl
$ sudo systemctl restart fetcher.service && journalctl -u fetcher.service -f --since "5 minutes ago"
\`\`\`

What changes, measured on the same 10,000 URLs:

| Setting | Before | After | p50 latency | p99 latency | Errors |
|---|---:|---:|---:|---:|---:|
| max_connections | 10 | 50 | 0.01 ms | 12.40 ms | 0.2 % |
| keep-alive | 5 | 20 | 0.02 ms | 9.80 ms | 0.1 % |
| timeout | none | 10 s | 0.01 ms | 10.00 ms | 0.0 % |

The same fix in TypeScript, if the service is the Node one:

\`\`\`ts
import {Agent, fetch} from 'undici'

const agent = new Agent({connections: 50, keepAliveTimeout: 20_000})

export async function fetchAll(urls: readonly string[], timeoutMs = 10_000): Promise<Uint8Array[]> {
  return Promise.all(
    urls.map(async (url) => {
      const res = await fetch(url, {dispatcher: agent, signal: AbortSignal.timeout(timeoutMs)})
      return new Uint8Array(await res.arrayBuffer())
    }),
  )
}
\`\`\`
`,
  `Here is the Go version; \`gofmt\` indents with tabs, kept as they are:

\`\`\`go
package pool

import (
	"context"
	"net/http"
	"time"
)

// Fetch gets every URL with at most n requests in flight.
func Fetch(ctx context.Context, urls []string, n int) ([]*http.Response, error) {
	sem := make(chan struct{}, n)
	out := make([]*http.Response, len(urls))
	client := &http.Client{Timeout: 10 * time.Second}
	for i, u := range urls {
		sem <- struct{}{}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		out[i], err = client.Do(req) // 结果按顺序返回
		<-sem
	}
	return out, nil
}
\`\`\`

And the Makefile target that builds it (recipes need a tab):

\`\`\`makefile
BIN := bin/fetcher

$(BIN): $(wildcard *.go)
	go build -trimpath -ldflags "-s -w" -o $@ .

test:
	go test -race -count=1 ./...
\`\`\`

| Language | Idiom | Where it breaks |
|---|---|---|
| Go | a buffered channel as a semaphore | forgetting to release on the error path |
| Rust | \`tokio::sync::Semaphore\` | holding the permit across an \`.await\` you did not mean to |
| Python | \`asyncio.Semaphore\` | creating it outside the running loop |

In Rust the permit is released when it is dropped:

\`\`\`rust
use std::sync::Arc;
use tokio::sync::Semaphore;

pub async fn fetch_all(urls: Vec<String>, n: usize) -> Vec<reqwest::Result<String>> {
    let sem = Arc::new(Semaphore::new(n));
    let tasks = urls.into_iter().map(|url| {
        let sem = Arc::clone(&sem);
        tokio::spawn(async move {
            let _permit = sem.acquire().await.expect("semaphore closed");
            reqwest::get(&url).await?.text().await
        })
    });
    futures::future::join_all(tasks).await.into_iter().map(|r| r.expect("task panicked")).collect()
}
\`\`\`
`,
  `To find the slow queries, start from the statistics view:

\`\`\`sql
SELECT query, calls, round(total_exec_time::numeric, 2) AS total_ms, round(mean_exec_time::numeric, 2) AS mean_ms
FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY total_exec_time DESC
LIMIT 20;
\`\`\`

| query | calls | total_ms | mean_ms |
|---|---:|---:|---:|
| \`SELECT * FROM orders WHERE customer_id = $1\` | 182,004 | 91,230.55 | 0.50 |
| \`UPDATE inventory SET qty = qty - $1 WHERE sku = $2\` | 40,117 | 60,410.02 | 1.51 |
| \`SELECT count(*) FROM events WHERE created_at > now() - interval '1 day'\` | 1,440 | 58,001.90 | 40.28 |

The third one scans the whole table; an index on the timestamp fixes it:

\`\`\`sql
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_created_at_idx ON events (created_at);
\`\`\`

And the CI job that checks it stays fast:

\`\`\`yaml
name: db-perf
on:
  pull_request:
    paths: ["migrations/**", "src/db/**"]
jobs:
  explain:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
        env: {POSTGRES_PASSWORD: postgres}   
    steps:
      - uses: actions/checkout@v4
      - run: ./scripts/explain-slow-queries.sh --max-mean-ms 5 --fail-on-seq-scan events
\`\`\`

The script's settings:

\`\`\`json
{"maxMeanMs": 5, "failOnSeqScan": ["events", "orders"], "ignore": ["pg_catalog.*"], "report": "markdown", "note": "設定ファイル ✅"}
\`\`\`
`,
  `Three ways to do it, compared:

| Approach | Setup | Cost per call | Memory | Good for | Caveat |
|---|---|---:|---:|---|---|
| In-process cache | none | 0.01 ms | 120 MB | a single instance | lost on restart |
| Redis | a server | 0.35 ms | 40 MB | many instances | one more thing to run |
| CDN edge cache | configuration | 0.00 ms | 0 MB | public GET responses | invalidation takes minutes |

The in-process one is a few lines:

\`\`\`ts
const cache = new Map<string, {value: unknown; expires: number}>()

export function cached<T>(key: string, ttlMs: number, load: () => T): T {
  const hit = cache.get(key)
  if (hit && hit.expires > Date.now()) return hit.value as T
  const value = load()
  cache.set(key, {value, expires: Date.now() + ttlMs})
  return value
}
\`\`\`

Redis from Python, with a lock so only one worker refills a key:

\`\`\`python
import redis

r = redis.Redis.from_url("redis://localhost:6379/0", decode_responses=True)

def cached(key: str, ttl: int, load):
    if (hit := r.get(key)) is not None:
        return hit
    with r.lock(f"lock:{key}", timeout=5):
        if (hit := r.get(key)) is None:
            hit = load()
            r.set(key, hit, ex=ttl)
    return hit
\`\`\`

Check that it is used:

\`\`\`bash
redis-cli --stat -i 1 | head -n 5
redis-cli info stats | grep -E '^(keyspace_hits|keyspace_misses):'
\`\`\`

    # an indented block: the old cron line to remove
    */5 * * * * /usr/local/bin/warm-cache --all	# every five minutes

| Step | Command |
|---|---|
| Flush one key | \`redis-cli del user:42\` |
| Flush everything | \`redis-cli flushdb\` (careful: every key of the database) |
`,
]

/** A code- and table-heavy answer of about `bytes`: the answers above, over and over, each copy's names numbered. */
export function codeHeavyAnswer(bytes: number): string {
  const parts: string[] = ['# Answer']
  let size = parts[0].length
  for (let k = 0; size < bytes; k++) {
    const text = CODE_HEAVY_ANSWERS[k % CODE_HEAVY_ANSWERS.length].replace(/fetch_all|fetchAll|cached/g, (m) => `${m}${k}`).trimEnd()
    parts.push(text)
    size += text.length + 2
  }
  return parts.join('\n\n') + '\n'
}
