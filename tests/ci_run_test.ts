// .ci/run's bookkeeping (issue 34 item 3, issue 33 item 6): a failing suite does not stop the run,
// every suite reports, the run fails at the end with the totals and the failed steps; each suite's
// CPU seconds (user + sys of it and its children) are printed and the core suite's are held to
// the budget. The test runs .ci/run's own functions in bash on stand-in suites:
//
//   deno test --allow-read --allow-run tests/ci_run_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";

const CI = await Deno.readTextFile(new URL("../.ci/run", import.meta.url));
const canRun = Deno.permissions.querySync({ name: "run", command: "bash" }).state === "granted";

/** .ci/run's function definitions and settings: from `step()` up to the first step. */
function functions(): string {
  const start = CI.indexOf("step() {");
  const end = CI.indexOf('step "toolchain"');
  assert(
    start >= 0 && end > start,
    ".ci/run's layout changed: no step() before the toolchain step",
  );
  return CI.slice(start, end);
}

async function bash(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command("bash", {
    args: ["-c", `set -euo pipefail\n${functions()}\n${script}`],
    stdin: "null",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

Deno.test({
  name:
    "issue 34.3: a failing suite does not stop .ci/run; the later suites run and the run fails at the end with the totals and the failed steps",
  ignore: !canRun,
  async fn() {
    const got = await bash(`
run_tests bash -c 'echo "FAILED | 1249 passed | 1 failed (9s)"; exit 1'
check "deno fmt --check" false
run_tests bash -c 'echo "ok | 298 passed | 0 failed (3s)"'
run_tests bash -c 'echo "error: Type checking failed."; exit 1'
echo "still running"
summary || exit 1
`);
    assertEquals(got.code, 1, got.stdout + got.stderr);
    assert(got.stdout.includes("ok | 298 passed"), "the suite after the failure did not run");
    assert(got.stdout.includes("still running"));
    // The suite that failed before it reported counts is counted as one failure.
    assert(got.stdout.includes("1547 passed, 2 failed"), got.stdout);
    const listed = got.stdout.slice(got.stdout.indexOf("FAILED steps (3):"));
    assert(listed.includes(`bash -c echo "FAILED | 1249 passed | 1 failed (9s)"; exit 1`), listed);
    assert(listed.includes("deno fmt --check"), listed);
    assert(listed.includes("Type checking failed"), listed);
  },
});

Deno.test({
  name: "issue 34.3: when every step passes, .ci/run's summary passes with the totals",
  ignore: !canRun,
  async fn() {
    const got = await bash(`
run_tests bash -c 'echo "ok | 5 passed | 0 failed (1s)"'
check "deno lint" true
summary
`);
    assertEquals(got.code, 0, got.stdout + got.stderr);
    assert(got.stdout.includes("5 passed, 0 failed"), got.stdout);
    assert(!got.stdout.includes("FAILED"), got.stdout);
  },
});

Deno.test({
  name:
    "issue 33.6: run_tests prints a suite's CPU seconds (its children's user + sys), and the core suite over its budget fails the run",
  ignore: !canRun,
  async fn() {
    // A suite that spends CPU in a child: a loop that spins until its own user + sys time reaches
    // 60 clock ticks (0.6 s of CPU, however long that takes on a loaded machine).
    const busy = await Deno.makeTempFile({ suffix: ".sh" });
    await Deno.writeTextFile(
      busy,
      `bash -c 'while [ "$(awk "{ print \\$14 + \\$15 }" /proc/$$/stat)" -lt 60 ]; do :; done'
echo "ok | 1 passed | 0 failed (1s)"
`,
    );
    const got = await bash(`
run_tests bash ${busy}
core_cpu=$cpu_seconds
echo "measured: $core_cpu"
CORE_CPU_BUDGET=45
core_budget "$core_cpu"
CORE_CPU_BUDGET=0.1
core_budget "$core_cpu"
summary || exit 1
`).finally(() => Deno.remove(busy));
    assertEquals(got.code, 1, got.stdout + got.stderr);
    const measured = Number(/measured: ([\d.]+)/.exec(got.stdout)?.[1]);
    assert(measured >= 0.5 && measured < 30, `CPU seconds measured: ${measured}\n${got.stdout}`);
    assert(/CPU: [\d.]+ s \(user \+ sys\): bash /.test(got.stdout), got.stdout);
    assert(got.stdout.includes(`core suite CPU: ${measured} s of a budget of 45 s`), got.stdout);
    assert(got.stderr.includes(`over its budget of 0.1 s`), got.stderr);
    assert(got.stdout.includes(`core suite CPU ${measured} s > 0.1 s`), got.stdout);
  },
});

Deno.test({
  name:
    "issue 33.3: every entry deno.json exports passes deno doc --lint on its own, and .ci/run lints each one alone",
  ignore: Deno.permissions.querySync({ name: "run" }).state !== "granted",
  async fn() {
    const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
    const entries = Object.values(config.exports as Record<string, string>)
      .map((path) => path.replace(/^\.\//, ""));
    const loop = /for entry in ([^;]+); do/.exec(CI)?.[1].trim().split(/\s+/) ?? [];
    const linted = new Set<string>();
    for (const pattern of loop) {
      if (!pattern.includes("*")) linted.add(pattern);
      else {
        const dir = pattern.slice(0, pattern.lastIndexOf("/"));
        for await (const entry of Deno.readDir(new URL(`../${dir}`, import.meta.url))) {
          // The loop skips the private _files, as its [[ ... == adapters/_* ]] says.
          if (entry.name.endsWith(".ts") && !entry.name.startsWith("_")) {
            linted.add(`${dir}/${entry.name}`);
          }
        }
      }
    }
    assertEquals(entries.filter((entry) => !linted.has(entry)), [], "entries .ci/run skips");
    const failing: string[] = [];
    for (const entry of entries) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["doc", "--lint", entry],
        cwd: new URL("..", import.meta.url),
        env: { NO_COLOR: "1" },
        stdin: "null",
      }).output();
      if (!out.success) {
        const said = new TextDecoder().decode(out.stderr);
        failing.push(
          `${entry}: ${said.split("\n").filter((l) => l.startsWith("error")).join("; ")}`,
        );
      }
    }
    assertEquals(failing, []);
  },
});

Deno.test("issue 34.1, 33.6: .ci/run holds the core suite to its CPU budget and ends with the cold start of both README commands", () => {
  assert(/^CORE_CPU_BUDGET=45$/m.test(CI), "the budget is 45 s of CPU");
  const core = CI.indexOf("run_tests deno test --allow-read --allow-write --no-prompt\n");
  assert(core >= 0 && CI.indexOf('core_budget "$core_cpu"', core) > core, "no budget check");
  assert(/deno run -A (--no-prompt )?scripts\/cold_start.ts --test/.test(CI), "no cold start step");
});
