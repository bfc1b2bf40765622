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

// A PDF's text, extracted in the worker thread (C17.2a) from this bundle's chunks.
const objects = [
  "<< /Type /Catalog /Pages 2 0 R >>",
  "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
  "<< /Length 40 >>\nstream\nBT /F1 10 Tf 20 50 Td (under node) Tj ET\nendstream",
  "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
];
let pdf = "%PDF-1.4\n";
const offsets = objects.map((body, i) => {
  const at = pdf.length;
  pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  return at;
});
const xref = pdf.length;
pdf += `xref\n0 6\n0000000000 65535 f \n${
  offsets.map((at) => `${String(at).padStart(10, "0")} 00000 n \n`).join("")
}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
const pdfFs = new MemoryFileSystem({ roots: ["/work"], files: { "/work/a.pdf": pdf } });
const document = await createFsTools({ fs: pdfFs }).execute("read", { file_path: "a.pdf" });
assert.equal(document.isError, false, document.content);
assert.match(document.content, /\n1: --- page 1 ---\n2: under node\n/);
checks.push("pdf");

assert.throws(() => new LocalFileSystem({ roots: ["/tmp"] }), /MemoryFileSystem/);
checks.push("LocalFileSystem refuses");

console.log(`ok ${checks.join(", ")}`);
