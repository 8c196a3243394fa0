/**
 * The user's failure patterns (`unknownSkillPatterns`, `unsupportedModePatterns`), compiled. Pure.
 */

/** A failure pattern, compiled. `label` is what is reported (never the matched text). */
export interface TextMatcher {
  label: string;
  test(text: string): boolean;
}

/**
 * Strings match case-insensitively as substrings; regular expressions are made case-insensitive.
 */
export function compilePatterns(patterns: ReadonlyArray<string | RegExp>): TextMatcher[] {
  const out: TextMatcher[] = [];
  for (const p of patterns) {
    if (typeof p === 'string') {
      if (p.length === 0) continue;
      const needle = p.toLowerCase();
      out.push({ label: p, test: (text) => text.toLowerCase().includes(needle) });
    } else if (p instanceof RegExp) {
      const flags = p.flags.replace(/[gy]/g, '');
      const re = new RegExp(p.source, flags.includes('i') ? flags : flags + 'i');
      out.push({ label: String(p), test: (text) => re.test(text) });
    }
  }
  return out;
}

/** The first matcher that matches `text`; a matcher that throws matches nothing. */
export function firstMatch(
  matchers: readonly TextMatcher[],
  text: string,
): TextMatcher | undefined {
  for (const m of matchers) {
    try {
      if (m.test(text)) return m;
    } catch {
      // a user pattern that throws matches nothing
    }
  }
  return undefined;
}
