// Answers as models write them, for the markdown renderer's tests: every block
// kind, nested lists, tables (wide ones too), code with and without a
// language, CJK and emoji, very long lines, and the traps of RFD 089 (a
// setext heading, a one-line paragraph that never ends, a stray `*`, an
// unterminated fence). 12 whole answers written out, and answers composed
// from the sections below in a fixed order (no randomness: a failure names
// the answer). Then the code- and table-heavy answers of the benches
// (bench/lib/code-heavy.ts).

import {CODE_HEAVY_ANSWERS} from '../../bench/lib/code-heavy.js'

const S = {
  intro: `Sure! Here's how to approach this. The short version is that you want to **avoid blocking the event loop**, keep the work incremental, and measure before you optimise anything.`,
  introCjk: `当然可以！这里是一个简短的说明：使用 \`async\`/\`await\` 可以让代码更清晰。日本語の説明も少し加えます — 絵文字も使えます 🎉🚀✨.`,
  steps: `## Steps

1. Install the dependencies with \`npm ci\` (it uses the lock file, so the versions are exact).
2. Run the build: \`npm run build\`.
3. Start the server and open <http://localhost:3000> in your browser.
   The first load can take a few seconds while the cache warms up.
4. Check the logs for warnings.`,
  nested: `### Options

- **Configuration**
  - \`timeout\`: how long to wait, in milliseconds
  - \`retries\`: how many times to try again
    - only for idempotent requests
    - never for \`POST\` unless you set \`force: true\`
- **Logging**
  - levels: \`debug\`, \`info\`, \`warn\`, \`error\`
- Everything else keeps its default.`,
  tasks: `Here's the checklist:

- [x] Write the failing test
- [x] Fix the bug
- [ ] Update the changelog
- [ ] Ask for a review from someone who knows the *parser* well`,
  table: `| Method | Time (ms) | Memory | Notes |
|--------|----------:|:------:|-------|
| \`JSON.parse\` | 12.4 | 3 MB | fastest for small inputs |
| streaming parser | 18.9 | 0.4 MB | constant memory, good for **large** files |
| hand-written | 9.1 | 0.2 MB | brittle; only worth it in a hot loop |`,
  wideTable: `| Feature | Description | Supported since | Caveats and further notes that make this column very wide indeed |
|---|---|---|---|
| Streaming | Output appears as it arrives, block by block, without waiting for the end | 1.0 | Tables are held until their last row because column widths depend on every row |
| Hyperlinks | OSC 8 links on terminals that support them | 1.2 | Off by default; some terminals print the escape sequence literally |
| Themes | \`ansi\`, \`dark\`, \`light\`, \`mono\` | 1.3 | — |`,
  pipelessTable: `name | value
--- | ---
alpha | 1
beta | 2`,
  python: `\`\`\`python
import asyncio


async def fetch_all(urls: list[str]) -> list[bytes]:
    """Fetch every URL concurrently.

    Returns the bodies in the same order as \`urls\`.
    """
    async with httpx.AsyncClient(timeout=10) as client:
        tasks = [client.get(u) for u in urls]
        responses = await asyncio.gather(*tasks)  # fails fast
    return [r.content for r in responses]
\`\`\``,
  ts: `\`\`\`ts
export async function retry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {
  let last: unknown
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn()
    } catch (e) {
      last = e
      await new Promise((r) => setTimeout(r, 2 ** i * 100)) /* backoff */
    }
  }
  throw last
}
\`\`\``,
  shell: `\`\`\`sh
$ git rebase -i HEAD~3
$ git push --force-with-lease origin feature/very-long-branch-name-that-goes-on-and-on-and-on-past-the-edge
\`\`\``,
  plainCode: `\`\`\`
plain text block
	with a tab and trailing spaces   
  and an indented line
\`\`\``,
  tildes: `~~~json
{"name": "jp", "version": "0.1.0", "tags": ["cli", "llm"]}
~~~`,
  indented: `An indented code block follows:

    make clean
    make -j8 all`,
  quote: `> **Note:** this changes the default behaviour.
> If you relied on the old one, set \`legacy = true\` in your config.
>
> - it is read once at start-up
> - it cannot be changed later`,
  lazyQuote: `> a quote whose second line is
lazy, without the marker`,
  rule: `---`,
  rule2: `* * *`,
  setext: `Result
======

Subtitle
--------`,
  longLine: `This is one very long line that goes on and on without any newline at all, the way models write a whole paragraph of reasoning in a single line, with commas, clauses, **bold words**, \`inline code\`, a [link to somewhere](https://example.com/a/very/long/path?with=query&and=more) and more words after it, until it finally ends with a full stop after well over the width of any reasonable terminal, and then it keeps going for another while just to make sure that the wrapping works across many, many lines of output without ever stalling or producing a line that is wider than the terminal.`,
  unbreakable: `Here is a long token: 4f2a9c8e1b7d6a5f3c2e1d0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0 and a URL https://example.com/${'segment/'.repeat(12)}end.`,
  emphasisMix: `Mixing ***strong emphasis***, *em with **strong** inside*, ~~strikethrough~~, snake_case_names, 2 * 3 * 4 = 24, a*b*c, and an escaped \\*star\\* plus a lone * here.`,
  hardBreaks: `Line one ends with two spaces  
line two ends with a backslash\\
line three is last.`,
  links: `See the [documentation](https://docs.example.com/guide "Guide"), the autolink <https://example.org>, a bare https://example.net/path, an email <me@example.com>, and an image ![diagram](https://example.com/d.png).`,
  entities: `Entities: &copy; 2024, &lt;tag&gt;, &amp;, &#x1F600; and a literal &notanentity.`,
  emoji: `Emoji widths: 👍🏽 👨‍👩‍👧‍👦 🇫🇷 ❤️ and CJK 全角文字 mixed with ASCII in one line that is long enough to wrap somewhere in the middle of the wide characters 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字.`,
  headings: `# Title

## Section with \`code\` in it

#### A deep heading

###### The deepest one`,
  ordered: `3. starts at three
4. continues
10. jumps (the numbers are renumbered)`,
  mixedList: `- bullet item

  with a second paragraph in the same item

- another item
  \`\`\`js
  console.log('code inside an item')
  \`\`\`
- last`,
  quoteCode: `> Run this first:
>
> \`\`\`sh
> make\tall   
> echo "全角文字と絵文字 🎉 at the edge of a narrow terminal, wrapped by it"
> \`\`\``,
  closing: `Let me know if you want me to go deeper into any of these — happy to help!`,
  starDash: `* a star list
* second
+ a plus list is a new list
- and a dash one`,
  definition: `[ref]: https://example.com/reference

Text that uses [the reference][ref].`,
}

/** The whole answers, written out. */
const WHOLE: Record<string, string> = {
  'unterminated fence': `Here is the start of the file:\n\n\`\`\`rust\nfn main() {\n    println!("hello");\n`,
  'unterminated fence, no newline': `Code:\n\n\`\`\`\nlet x = 1;`,
  'one long line, no newline at all': S.longLine,
  'one long line led by a block character': `[Note] ${S.longLine}`,
  'stray star in a long paragraph': `The product 2*3 is six, ${S.longLine}`,
  'only CJK': `中文段落：${'这是一个很长的句子，用来测试换行。'.repeat(12)}\n\n日本語：${'これは長い文です。'.repeat(10)}`,
  'emoji heavy': `# 🎉 Release notes 🚀\n\n${S.emoji}\n\n- ✅ done\n- ❌ not done\n- 🚧 in progress`,
  'crlf-free windows paths': 'Use `C:\\Users\\me\\AppData` or \\\\server\\share; backslashes everywhere \\ like this.',
  'table right after paragraph': `The results:\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone.`,
  'pipes in prose': `Use a | b to pipe, or the shell's || operator; neither is a table.\nA second line | with a pipe too.`,
  'heading then code, no blank lines': `# Title\n\`\`\`\ncode\n\`\`\`\nText right after.\n## Next\n- item`,
  'empty and blank': `\n\n   \n\nJust one line after blank lines.\n\n\n`,
  'invisible and bidi characters (shown as placeholders)':
    `# Title\u202e with an override\n\nA para\u200bgraph with a zero\u2060width, a \ufeffBOM, an &#x202e;entity and **bold\u2066isolate\u2069** text that wraps across several lines of the terminal at narrow widths.\u2028Next.\n\n- item \u200e&#x200b;one\n- item two\u00ad and \u061c\n\n| a\u202d | b |\n|---|---|\n| &#xfeff; | x |\n\n\`\`\`js\nconst access = "user\u202e \u2066// admin\u2069 \u2066"\n\`\`\`\n\n> quoted\u2029text \`co\u200dde\`\n`,
}

const ORDERS: (keyof typeof S)[][] = [
  ['intro', 'steps', 'python', 'closing'],
  ['intro', 'nested', 'table', 'closing'],
  ['introCjk', 'tasks', 'ts', 'emoji'],
  ['headings', 'quote', 'rule', 'longLine'],
  ['intro', 'wideTable', 'shell', 'closing'],
  ['emphasisMix', 'hardBreaks', 'links', 'entities'],
  ['setext', 'pipelessTable', 'plainCode', 'tildes'],
  ['intro', 'indented', 'lazyQuote', 'rule2', 'ordered'],
  ['mixedList', 'unbreakable', 'closing'],
  ['starDash', 'definition', 'table'],
  ['longLine', 'python', 'longLine', 'ts'],
  ['intro', 'steps', 'nested', 'tasks', 'table', 'python', 'quote', 'closing'],
  ['emoji', 'wideTable', 'introCjk'],
  ['headings', 'ordered', 'mixedList', 'hardBreaks'],
  ['links', 'steps', 'shell', 'plainCode'],
  ['quote', 'table', 'quote', 'rule', 'setext'],
  ['intro', 'tasks', 'emphasisMix', 'unbreakable', 'entities'],
  ['tildes', 'indented', 'python', 'ts', 'closing'],
  ['nested', 'longLine', 'wideTable', 'starDash'],
  ['introCjk', 'table', 'emoji', 'lazyQuote', 'definition'],
  ['pipelessTable', 'steps', 'rule2', 'longLine'],
  ['intro', 'mixedList', 'quote', 'links', 'closing'],
  ['setext', 'headings', 'hardBreaks', 'ordered', 'tasks'],
  ['shell', 'wideTable', 'plainCode', 'emphasisMix'],
  ['closing', 'intro', 'python', 'table', 'nested', 'longLine', 'quote', 'emoji', 'ts', 'links', 'headings', 'tasks'],
  ['unbreakable', 'introCjk', 'starDash', 'indented'],
  ['intro', 'ts', 'closing'],
  ['intro', 'python'],
  ['intro', 'steps', 'wideTable'],
  ['definition', 'emphasisMix', 'entities', 'closing'],
  ['headings', 'table', 'tasks', 'rule'],
  ['quote', 'mixedList', 'tildes', 'emoji'],
  ['intro', 'quoteCode', 'plainCode', 'closing'],
]

/** Joins sections as a model does: one blank line between blocks, a final newline or not. */
function compose(order: (keyof typeof S)[], k: number): string {
  const text = order.map((key) => S[key]).join('\n\n')
  return k % 3 === 0 ? text : text + '\n'
}

export const CORPUS: {name: string; text: string}[] = [
  ...Object.entries(WHOLE).map(([name, text]) => ({name, text})),
  ...CODE_HEAVY_ANSWERS.map((text, k) => ({name: `code-heavy ${k + 1}`, text})),
  ...ORDERS.map((order, k) => ({name: `composed ${k + 1}: ${order.join(' + ')}`, text: compose(order, k)})),
]

export const SECTIONS = S
