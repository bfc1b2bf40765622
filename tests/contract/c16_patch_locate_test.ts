// CONTRACT C16.1a and C16.2 as amended (issue 31 items 1–4): parsing as lenient as the reference
// (heredoc wrapper, stacked anchors, range headers), locating at its four levels with the cursor
// kept by pure additions and End of File only at the end, no hunk applied at a guess, and the
// bytes of every line the patch does not name kept — on both providers.

import assert from "node:assert/strict";
import { forEachProvider } from "../_sandbox.ts";
import { envelope, failure, patchTools, readAll } from "./_patch_helpers.ts";

const PY = [
  "class First",
  "    def target():",
  "        pass",
  "",
  "class Second",
  "    def helper():",
  "        pass",
  "",
  "    def target():",
  "        pass",
  "",
].join("\n");

forEachProvider(
  "C16.1a a heredoc wrapper (<<EOF, <<'EOF', <<\"EOF\" … EOF) around the envelope is removed",
  { "a.txt": "one\n" },
  async (box) => {
    const tools = patchTools(box);
    let n = 0;
    for (const opener of ["<<EOF", "<<'EOF'", '<<"EOF"']) {
      await readAll(box, tools, "a.txt");
      const body = envelope("*** Update File: a.txt", "@@", `-${n ? n : "one"}`, `+${++n}`);
      const result = await tools.execute("patch", { patch: `${opener}\n${body}\nEOF\n` });
      assert.equal(result.isError, false, result.content);
      assert.equal(result.content, "Updated a.txt");
      assert.equal(await box.read("a.txt"), `${n}\n`);
    }
    // Only those openers: a mismatched quote is not a wrapper, and nothing changes.
    await readAll(box, tools, "a.txt");
    const [content, code] = await failure(
      tools,
      `<<"EOF'\n${envelope("*** Update File: a.txt", "@@", "-3", "+4")}\nEOF`,
    );
    assert.equal(
      content,
      'Error: invalid patch at line 1: the patch must start with "*** Begin Patch"',
    );
    assert.equal(code, "FS_INVALID_ARGUMENT");
    assert.equal(await box.read("a.txt"), "3\n");
  },
);

forEachProvider(
  "C16.1a/C16.2 stacked @@ anchors narrow the place, each sought after the one before it",
  { "a.py": PY },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "a.py");
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: a.py",
        "@@ class Second",
        "@@     def target():",
        "-        pass",
        "+        return 1",
      ),
    });
    assert.equal(result.isError, false, result.content);
    // Not First's target, not Second's helper: the pass below Second's target.
    assert.equal(await box.read("a.py"), PY.replace(/pass\n$/, "return 1\n"));
  },
);

forEachProvider(
  "C16.2 each stacked anchor must be found; one that is not fails the patch with nothing changed",
  { "a.py": PY },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "a.py");
    assert.deepEqual(
      await failure(
        tools,
        envelope(
          "*** Update File: a.py",
          "@@ class Second",
          "@@     def missing():",
          "-        pass",
          "+        return 99",
        ),
      ),
      [
        'Error: cannot patch "a.py" (Update File, hunk 1 at patch line 3): the anchor "@@     def missing():" was not found; read the file again and copy that line exactly',
        "FS_NO_MATCH",
      ],
    );
    assert.equal(await box.read("a.py"), PY);
  },
);

forEachProvider(
  "C16.1a a unified-diff range header (@@ -1,2 +1,2 @@, with or without text) counts as a bare @@",
  { "a.txt": "one\ntwo\n", "b.txt": "x\ny\n" },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "a.txt", "b.txt");
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: a.txt",
        "@@ -1,2 +1,2 @@",
        " one",
        "-two",
        "+2",
        "*** Update File: b.txt",
        "@@ -2 +2 @@ function y()",
        "-y",
        "+Y",
      ),
    });
    assert.equal(result.isError, false, result.content);
    assert.equal(await box.read("a.txt"), "one\n2\n");
    assert.equal(await box.read("b.txt"), "x\nY\n");
  },
);

forEachProvider(
  "C16.2 the fourth level reads typographic dashes, quotes and spaces as ASCII",
  {
    "u.py": "import asyncio  # local import \u2013 avoids top\u2011level dep\n" +
      "say(\u201chi\u201d, \u2018x\u2019)\u00a0# \u2212 1\n",
  },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "u.py");
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: u.py",
        "@@",
        "-import asyncio  # local import - avoids top-level dep",
        "-say(\"hi\", 'x') # - 1",
        "+import asyncio  # HELLO",
        "+say()",
      ),
    });
    assert.equal(result.isError, false, result.content);
    assert.equal(await box.read("u.py"), "import asyncio  # HELLO\nsay()\n");
  },
);

forEachProvider(
  "C16.2 a pure-addition hunk goes to the end and leaves the cursor, so a later hunk is still found",
  { "p.txt": "line1\nline2\nline3\n" },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "p.txt");
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: p.txt",
        "@@",
        "+after-context",
        "+second-line",
        "@@",
        " line1",
        "-line2",
        "-line3",
        "+line2-replacement",
      ),
    });
    assert.equal(result.isError, false, result.content);
    assert.equal(await box.read("p.txt"), "line1\nline2-replacement\nafter-context\nsecond-line\n");
  },
);

forEachProvider(
  "C16.2 a hunk ending with *** End of File matches only where its last line is the file's last",
  { "t.txt": "x\ny\nx  \n", "u.txt": "x\ny\n" },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "t.txt", "u.txt");
    // The last line matches only ignoring trailing whitespace; the first exactly. The last wins.
    const result = await tools.execute("patch", {
      patch: envelope("*** Update File: t.txt", "@@", "-x", "+X", "*** End of File"),
    });
    assert.equal(result.isError, false, result.content);
    assert.equal(await box.read("t.txt"), "x\ny\nX\n");
    // Lines that occur only above the end do not match at all.
    const [content, code] = await failure(
      tools,
      envelope("*** Update File: u.txt", "@@", "-x", "+X", "*** End of File"),
    );
    assert.match(content, /^Error: cannot patch "u.txt" \(Update File, hunk 1 at patch line 3\): /);
    assert.equal(code, "FS_NO_MATCH");
    assert.equal(await box.read("u.txt"), "x\ny\n");
  },
);

const HONO = [
  "/**",
  " * @module",
  " * Powered By Middleware for Hono.",
  " */",
  "",
  'import type { MiddlewareHandler } from "../../types.ts";',
  "",
  "type PoweredByOptions = {",
  "  /**",
  "   * The value for X-Powered-By header.",
  "   */",
  "  serverName?: string;",
  "};",
  "",
  "/**",
  " * Powered By Middleware for Hono.",
  " */",
  "export const poweredBy = (options?: PoweredByOptions): MiddlewareHandler => {",
  "  return async function poweredBy(c, next) {",
  "    await next();",
  '    c.res.headers.set("X-Powered-By", options?.serverName ?? "Hono");',
  "  };",
  "};",
  "",
].join("\n");

forEachProvider(
  "C16.2 a hunk without an anchor that matches at several places is refused with their lines (FS_AMBIGUOUS_MATCH)",
  { "powered_by.ts": HONO },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "powered_by.ts");
    assert.deepEqual(
      await failure(
        tools,
        envelope(
          "*** Update File: powered_by.ts",
          "@@",
          "- * Powered By Middleware for Hono.",
          "+ * Powered By Middleware for Hono: sets X-Powered-By.",
        ),
      ),
      [
        'Error: cannot patch "powered_by.ts" (Update File, hunk 1 at patch line 3): the lines to replace occur 2 times (lines 3, 16); add an @@ line naming the enclosing function or class, or more context',
        "FS_AMBIGUOUS_MATCH",
      ],
    );
    assert.equal(await box.read("powered_by.ts"), HONO);
    // An anchor (or more context) says which: the one below the anchor changes.
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: powered_by.ts",
        "@@ /**",
        "@@ /**",
        "- * Powered By Middleware for Hono.",
        "+ * Powered By Middleware for Hono: sets X-Powered-By.",
      ),
    });
    assert.equal(result.isError, false, result.content);
    const lines = HONO.split("\n");
    lines[15] = " * Powered By Middleware for Hono: sets X-Powered-By.";
    assert.equal(await box.read("powered_by.ts"), lines.join("\n"));
  },
);

forEachProvider(
  "C16.2 the ambiguity refusal lists at most 10 line numbers, then …",
  { "r.txt": "x\n".repeat(12) },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "r.txt");
    const [content, code] = await failure(
      tools,
      envelope("*** Update File: r.txt", "@@", "-x", "+y"),
    );
    assert.equal(
      content,
      'Error: cannot patch "r.txt" (Update File, hunk 1 at patch line 3): the lines to replace occur 12 times (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …); add an @@ line naming the enclosing function or class, or more context',
    );
    assert.equal(code, "FS_AMBIGUOUS_MATCH");
  },
);

forEachProvider(
  "C16.2 bytes: a replaced line keeps its own line break in a mixed CRLF/LF file, an added line takes the break above it, unchanged lines keep theirs",
  { "m.txt": "a\r\nb\nc\r\nd\n", "n.txt": "a\nb\nc" },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "m.txt", "n.txt");
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: m.txt",
        "@@",
        "-a",
        "-b",
        "+A",
        "+B",
        "+B2",
        " c",
        "-d",
        "+D",
        "*** Update File: n.txt",
        "@@",
        " b",
        "-c",
        "+C",
      ),
    });
    assert.equal(result.isError, false, result.content);
    // A keeps a's \r\n, B keeps b's \n, B2 takes the \n of B above it, c untouched, D keeps \n.
    assert.equal(await box.read("m.txt"), "A\r\nB\nB2\nc\r\nD\n");
    // A missing final line break stays missing (the reference adds one; toolfs does not).
    assert.equal(await box.read("n.txt"), "a\nb\nC");
  },
);
