// A README harness (tests/readme_test.ts, fence `ts scripted=console_approval`): the person at
// the console is scripted — `confirm` answers yes and records what it was shown — and the
// process exits non-zero unless the person saw the edit's unified diff and the edit landed.

const shown: string[] = [];
const log = console.log;
console.log = (...args: unknown[]) => {
  shown.push(args.map(String).join(" "));
  log(...args);
};
globalThis.confirm = (question?: string) => {
  shown.push(`${question} y`);
  return true;
};

globalThis.addEventListener("unload", () => {
  const diff = "--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-Teh quick fox\n+The quick fox\n";
  const text = Deno.readTextFileSync("workspace/README.md");
  const ok = shown[0] === diff && shown[1] === "Apply this change? y" &&
    shown[2] === "The file README.md has been updated successfully." &&
    text === "The quick fox\n";
  if (!ok) {
    console.error(`scripted console approval: shown ${JSON.stringify(shown)}, file ${text}`);
    Deno.exitCode = 3;
  }
});
