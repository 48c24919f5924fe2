// The one grapheme segmenter the process shares, built on first use. The
// first `new Intl.Segmenter` of a process loads ICU's break-iterator data
// (tens of ms on a busy machine; later ones are free), so building it at
// module load made every run pay for it, a piped `jp query` or `--help`
// included, though only key decoding, line editing and wrapping use it.
let segmenter: Intl.Segmenter | undefined

/** The shared grapheme-cluster segmenter (default locale), built the first time it is asked for. */
export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'})
  return segmenter
}
