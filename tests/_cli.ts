// The CLI run in-process with captured output (`runCli`), shared by the CLI test files.

import { type CliWriter, runCli } from "../cli.ts";
import { concatBytes } from "../src/text/bytes.ts";

/** A writer that keeps what it is given; `text()` decodes it all at once. */
export function capture(): CliWriter & { text(): string } {
  const chunks: Uint8Array[] = [];
  return {
    write(bytes: Uint8Array): Promise<number> {
      chunks.push(bytes.slice());
      return Promise.resolve(bytes.length);
    },
    text: () => new TextDecoder().decode(concatBytes(chunks)),
  };
}

/**
 * Runs the CLI in `root` with `argv` (and `stdin` when given), not in a terminal.
 *
 * @returns The exit status and what it wrote to stdout and stderr.
 */
export async function cli(
  root: string,
  argv: string[],
  stdin?: string,
): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout = capture();
  const stderr = capture();
  const status = await runCli(argv, {
    cwd: root,
    stdout,
    stderr,
    terminal: false,
    stdin: stdin === undefined ? undefined : new Blob([stdin]).stream(),
  });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}
