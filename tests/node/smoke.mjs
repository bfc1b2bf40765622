// The Node/Bun smoke test of CONTRACT C18.1, run by tests/contract/c18_runtimes_test.ts on the bundle of
// the runtime-neutral entry points (`deno bundle --platform node`). Plain JavaScript: Node and
// Bun run it as it stands. Prints "ok <checks>" and exits 0, or throws.

import assert from "node:assert/strict";
import { createFsTools, LocalFileSystem, systemPrompt } from "./mod.js";
import { MemoryFileSystem } from "./memory.js";
import { toAnthropicTools, toOpenAIResponsesTools } from "./formats.js";
import { memoryFixtures } from "./testing.js";
import { toAiSdkTools } from "./adapters/ai_sdk.js";
import { toLangChainTools } from "./adapters/langchain.js";
import { toOpenAIAgentsTools } from "./adapters/openai_agents.js";
import "./acp.js";

const checks = [];
const fs = new MemoryFileSystem({ roots: ["/work"], files: { "/work/a.txt": "hello\nworld\n" } });
const tools = createFsTools({ fs });

const read = await tools.execute("read", { file_path: "a.txt" });
assert.equal(read.isError, false, read.content);
assert.equal(
  read.content,
  "<path>a.txt</path>\n<type>file</type>\n<content>\n1: hello\n2: world\n\n(End of file - total 2 lines)\n</content>",
);
const edit = await tools.execute("edit", {
  file_path: "a.txt",
  old_string: "world",
  new_string: "node",
});
assert.equal(edit.content, "The file a.txt has been updated successfully.");
assert.equal(new TextDecoder().decode(fs.readFile("/work/a.txt")), "hello\nnode\n");
checks.push("read/edit");

const grep = await tools.execute("grep", { pattern: "no+de" });
assert.equal(grep.isError, false, grep.content);
assert.equal(grep.value.totalMatches, 1);
const glob = await tools.execute("glob", { pattern: "*.txt" });
assert.deepEqual(glob.value.files, ["/work/a.txt"]);
checks.push("grep/glob");

assert.ok(systemPrompt(tools.definitions).length > 100);
assert.equal(toAnthropicTools(tools.definitions).length, 6);
assert.equal(toOpenAIResponsesTools(tools.definitions).length, 6);
checks.push("formats");

const box = await memoryFixtures()({ files: { "root/b.txt": "x" } });
assert.equal(new TextDecoder().decode(await box.read("root/b.txt")), "x");
checks.push("testing");

const ai = toAiSdkTools(tools);
const aiResult = await ai.read.execute({ file_path: "a.txt" }, { abortSignal: undefined });
assert.equal(ai.read.toModelOutput({ output: aiResult }).value, aiResult.content);
const lc = toLangChainTools(tools);
assert.ok(
  (await lc.find((t) => t.name === "read").invoke({ file_path: "a.txt" })).includes("2: node"),
);
const agents = toOpenAIAgentsTools(tools);
assert.deepEqual(agents.map((t) => t.name), ["list", "read", "write", "edit", "glob", "grep"]);
checks.push("adapters");

assert.throws(() => new LocalFileSystem({ roots: ["/tmp"] }), /MemoryFileSystem/);
checks.push("LocalFileSystem refuses");

console.log(`ok ${checks.join(", ")}`);
