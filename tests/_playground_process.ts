// The playground as a child process, for the tests that start it: runs a Deno command until it
// prints `toolfs playground: <url>` or exits, keeping everything it printed.

/**
 * The permissions `playground/server/main.ts` runs with (as `deno task playground` grants):
 * `--allow-all`, so that `move` and `delete` are offered (C15.5, issue 32.8).
 */
export const PLAYGROUND_PERMISSIONS: readonly string[] = ["--allow-all"];

/** A playground process that printed its URL, or exited first. */
export interface StartedPlayground {
  /** Everything printed on stdout and stderr so far. */
  readonly output: string;
  /** The printed URL, token included; absent when the process exited first. */
  url?: string;
  /** The exit code, when the process exited before printing a URL. */
  code?: number;
  /** Ends the process (SIGTERM) and waits for it and its output. */
  stop(): Promise<void>;
}

/**
 * Runs `deno <args>` until it prints its playground URL or exits.
 *
 * @param args The arguments after the Deno executable (`["task", "playground", …]`, `["run", …]`).
 * @param options The working directory and extra environment.
 * @returns The started (or already exited) process.
 */
export async function startPlayground(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<StartedPlayground> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  let found: (url: string | undefined) => void;
  const url = new Promise<string | undefined>((resolve) => (found = resolve));
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      output += text;
      const match = /toolfs playground: (\S+)/.exec(output);
      if (match) found(match[1]);
    }
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const status = child.status.then((s) => {
    found(undefined);
    return s;
  });
  const printed = await url;
  const exited = printed === undefined ? await status : undefined;
  if (exited) await drained;
  return {
    get output() {
      return output;
    },
    url: printed,
    code: exited?.code,
    async stop() {
      if (!exited) {
        child.kill("SIGTERM");
        await status;
        await drained;
      }
    },
  };
}
