// The RE2 form of the regular expressions the `ignore` package builds for `.gitignore` rules.
// Private to src/text (gitignore.ts).

/**
 * The RE2 form of the JavaScript source `ignore` builds for a rule (its `regex`, without the
 * wildcard pinning, which changes how a match is found, not whether there is one): the final
 * lookahead `(?=$|\/$)` consumes instead (nothing follows it); a class is rewritten member by
 * member, `/` taken out where `ignore` guarded it with `(?!\/)`; an empty class never matches.
 */
export function toRe2(prefix: string): string {
  const source = prefix
    .replace(/(^|\\\/)?\uE000$/, (_, p1) => `${p1 ? `${p1}[^/]+` : "[^/]*"}(?=$|\\/$)`)
    .replace(/\uE001$/, "(?s:.)");
  let out = "";
  for (let i = 0; i < source.length;) {
    const c = source[i];
    if (source.startsWith("(?=", i)) {
      out += "(?:";
      i += 3;
    } else if (source.startsWith("(?!\\/)[", i)) {
      const [cls, next] = readClass(source, i + 6, true);
      out += cls;
      i = next;
    } else if (c === "[") {
      const [cls, next] = readClass(source, i, false);
      out += cls;
      i = next;
    } else if (c === "\\") {
      out += source.slice(i, i + 2);
      i += 2;
    } else if (c === "]" || c === "}") {
      out += "\\" + c;
      i++;
    } else if (source.startsWith("(?s:.)", i)) {
      out += "(?s:.)";
      i += 6;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const NEVER = "[^\\x{0}-\\x{10FFFF}]";

/** A JavaScript class at `at` as RE2 code points, `/` removed when `noSlash`. */
function readClass(source: string, at: number, noSlash: boolean): [string, number] {
  let i = at + 1;
  let negated = false;
  if (source[i] === "^") {
    negated = true;
    i++;
  }
  const ranges: [number, number][] = [];
  const member = (): number => {
    const c = source[i];
    if (c !== "\\") {
      const code = source.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
      return code;
    }
    const e = source[i + 1];
    i += 2;
    if (e === "x") {
      const code = parseInt(source.slice(i, i + 2), 16);
      i += 2;
      return code;
    }
    if (e === "t") return 9;
    if (e === "n") return 10;
    if (e === "r") return 13;
    const code = source.codePointAt(i - 1)!;
    if (code > 0xffff) i++;
    return code;
  };
  while (i < source.length && source[i] !== "]") {
    const lo = member();
    if (source[i] === "-" && source[i + 1] !== "]" && i + 1 < source.length) {
      i++;
      const hi = member();
      ranges.push([lo, hi]);
    } else ranges.push([lo, lo]);
  }
  const next = i + 1;
  const parts: string[] = [];
  for (const [lo, hi] of ranges) {
    if (!noSlash || hi < 0x2f || lo > 0x2f) parts.push(range(lo, hi));
    else {
      if (lo < 0x2f) parts.push(range(lo, 0x2e));
      if (hi > 0x2f) parts.push(range(0x30, hi));
    }
  }
  if (negated) return [`[^${parts.join("")}]`, next];
  return [parts.length === 0 ? NEVER : `[${parts.join("")}]`, next];
}

function range(lo: number, hi: number): string {
  const hex = (n: number) => `\\x{${n.toString(16)}}`;
  return lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`;
}
