// Unit tests of src/text/gitignore.ts: a file's path is decided exactly as the `ignore` package's
// own `test` decides it (its parent directories first), without the package's per-path cache.

import { deepEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import ignore from "ignore";
import { IgnoreStack, parseGitignore, requiredLiteral } from "../../../src/text/gitignore.ts";

const segment = fc.constantFrom(
  "a",
  "b",
  "B",
  "!x",
  "build",
  "x.ts",
  "x.js",
  "lib",
  "node_modules",
  ".env",
  "X.MIN.js",
  "Build",
  "ü",
);
const rule = fc.constantFrom(
  "build",
  "build/",
  "/lib",
  "*.js",
  "!x.js",
  "a/**",
  "!a/b",
  "b/",
  "!build/x.ts",
  "**/lib/*.ts",
  "node_modules",
  "a/*/x.ts",
  "!*.ts",
  "# comment",
  "**/a/**",
  "a/**/b",
  "[a-c]*",
  "?",
  "*.[jt]s",
  "[!a]*",
  "a/*",
  "/**",
  "**",
  "*a*b*",
  "[[:alpha:]]",
  "B/",
  "\\!x",
  "x.ts ",
  "lib/**/",
  "*.min.js",
  "BUILD/",
  "**/node_modules/x.ts",
  "x.{a,b}",
  "Ü",
);

Deno.test("C9.2: IgnoreStack decides a file's path as ignore's test does, parents first, uncached", () => {
  fc.assert(
    fc.property(
      fc.array(rule, { minLength: 1, maxLength: 6 }),
      fc.array(fc.array(segment, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 20 }),
      (lines, paths) => {
        const rules = parseGitignore(lines.join("\n"));
        if (!rules) return;
        const stack = new IgnoreStack([{ base: "", rules }]);
        const reference = ignore({ allowRelativePaths: true }).add(lines);
        for (const parts of paths) {
          const path = parts.join("/");
          // Twice: the second answer must not come from a stale or different cache entry.
          for (let round = 0; round < 2; round++) {
            equal(stack.ignores(path, false), reference.test(path).ignored, path);
            equal(stack.ignores(path, true), reference.test(path + "/").ignored, path + "/");
            const { ignored, unignored } = reference.test(path);
            deepEqual(rules.test(path), { ignored, unignored }, path);
          }
        }
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("C9.2: IgnoreEntries carried down a walk answers as IgnoreStack does for every entry", () => {
  const files = fc.option(fc.array(rule, { minLength: 1, maxLength: 4 }), { nil: undefined });
  fc.assert(
    fc.property(
      files,
      fc.array(files, { minLength: 1, maxLength: 4 }),
      fc.array(segment, { minLength: 4, maxLength: 4 }),
      (above, levels, dirs) => {
        // A file in a directory above the search directory, which sits at `x/`.
        const ancestor = above && parseGitignore(above.join("\n"));
        let stack = new IgnoreStack(ancestor ? [{ base: "", prefix: "x/", rules: ancestor }] : []);
        let view = stack.entriesOf("");
        for (let depth = 0; depth < levels.length; depth++) {
          const rel = dirs.slice(0, depth).join("/");
          const lines = levels[depth];
          const rules = lines && parseGitignore(lines.join("\n"));
          if (rules) {
            stack = stack.push({ base: rel, rules });
            view = view.withRules(rules);
          }
          for (const name of ["a", "b", "build", "x.ts", "x.js", "lib", ".env"]) {
            const path = rel === "" ? name : `${rel}/${name}`;
            equal(view.ignores(name, false), stack.ignores(path, false), path);
            equal(view.ignores(name, true), stack.ignores(path, true), path + "/");
          }
          view = view.child(dirs[depth] ?? "a");
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("C9.2: a rule's required literal is text every path it matches holds, in lower case", () => {
  const cases: [string, string | null][] = [
    ["(?:^|\\/)[^\\/]*\\.min\\.js(?=$|\\/$)", ".min.js"],
    ["^Tests\\/napi\\/build(?=$|\\/$)", "tests/napi/build"],
    ["(?:^|\\/)foo[^\\/]barbaz(?=$|\\/$)", "barbaz"],
    ["(?:^|\\/)x\\{1,2}y(?=$|\\/$)", "x{1,2"],
    ["(?:^|\\/)ab?c", "a"],
    ["^a(?:\\/[^\\/]+)*\\/bc(?=$|\\/$)", "/bc"],
    ["a|bcd", null],
    ["(?:^|\\/)\\d+", null],
    ["(?:^|\\/)ü\\.txt", null],
  ];
  for (const [source, literal] of cases) equal(requiredLiteral(source), literal, source);
});
