// Nothing is silently dropped from the test runs (issue 20): the design card's plain
// `deno test --allow-read --allow-write` runs only deno.json's `test.include`, the one module
// tests/core_suite.ts that imports the fast core, so every test file under tests/ must be
// imported there or named by a `test:*` task (every file of tests/contract/ and tests/unit/ must
// be imported there), every `test:*` task must be one CI runs (.ci/run), and every path a task or
// the suite names must exist.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";

const TOP = new URL("../", import.meta.url);

type Task = string | { command: string; description?: string };

async function testFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir, TOP))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) {
      if (dir === "tests/" && entry.name === "node") continue; // deno.json excludes it
      found.push(...await testFiles(`${path}/`));
    } else if (entry.isFile && /[_.]test\.tsx?$/.test(entry.name)) {
      found.push(path);
    }
  }
  return found.sort();
}

/** The file and folder paths under tests/ that a task's command line names. */
function pathsOf(command: string): string[] {
  return command.split(/\s+/).filter((word) => word.startsWith("tests/"));
}

function covers(paths: string[], file: string): boolean {
  return paths.some((path) => path.endsWith("/") ? file.startsWith(path) : file === path);
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(new URL(path, TOP));
    return true;
  } catch {
    return false;
  }
}

/** The test files tests/core_suite.ts imports, as paths from the top (`tests/…`). */
async function coreSuite(): Promise<string[]> {
  const text = await Deno.readTextFile(new URL("tests/core_suite.ts", TOP));
  return [...text.matchAll(/^import "\.\/([^"]+)";$/gm)].map((m) => `tests/${m[1]}`);
}

Deno.test("issue 20: every test file under tests/ is run by the default command or a named test task, and CI runs every test task", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", TOP)));
  assertEquals(config.test.include, ["tests/core_suite.ts"], "the default command runs the suite");
  const core = await coreSuite();
  const tasks = Object.entries(config.tasks as Record<string, Task>)
    .filter(([name]) => name === "test" || name.startsWith("test:"))
    .map(([name, task]) => ({ name, command: typeof task === "string" ? task : task.command }));
  // The default set and each task other than test:all, which runs tests/ whole as a shortcut.
  const named = [
    ...core,
    ...tasks.filter((t) => t.name !== "test:all").flatMap((t) => pathsOf(t.command)),
  ];
  for (const path of named) {
    assert(await pathExists(path), `deno.json names ${path}, which is gone`);
  }
  const files = await testFiles("tests/");
  assert(files.length > 50, `${files.length} test files found`);
  assertEquals(
    files.filter((f) => /^tests\/(contract|unit)\//.test(f) && !core.includes(f)),
    [],
    "contract and unit test files tests/core_suite.ts does not import",
  );
  assertEquals(core, [...core].sort(), "tests/core_suite.ts imports in path order");
  assertEquals(files.filter((file) => !covers(named, file)), [], "test files no task runs");
  assert(covers(pathsOf(tasks.find((t) => t.name === "test:all")!.command), files[0]));

  const ci = await Deno.readTextFile(new URL(".ci/run", TOP));
  assert(
    ci.includes("run_tests deno test --allow-read --allow-write --no-prompt\n"),
    "CI runs the design card's command",
  );
  for (const { name } of tasks) {
    if (name === "test" || name === "test:all") continue; // the line above; the tasks below together
    assert(ci.includes(`run_tests deno task ${name}\n`), `.ci/run does not run deno task ${name}`);
  }
});
