// Special files (issue 7, C4.2, C4.4): a FIFO, a socket, character devices inside a root and
// `/dev/zero` through a link are refused without ever being opened, so nothing hangs.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, type FsToolResult, LocalFileSystem } from "../../mod.ts";
import {
  adversarialSandbox,
  argsFor,
  assertError,
  cannotRun,
  figure,
  granted,
  OPS,
  skipUnless,
} from "./_harness.ts";

const HANG_MS = 5000;

/**
 * Runs `call`, failing if it has not settled after `HANG_MS`; `unblock` then releases whatever
 * it hangs on (so the test can finish and report), e.g. by opening the FIFO's other end.
 */
async function noHang(
  what: string,
  call: () => Promise<FsToolResult>,
  unblock: () => Promise<void> = async () => {},
): Promise<FsToolResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => timer = setTimeout(() => resolve("hung"), HANG_MS));
  const pending = call();
  const winner = await Promise.race([pending, hung]);
  clearTimeout(timer);
  if (winner === "hung") {
    await unblock();
    await pending.catch(() => {});
    assert.fail(`${what} hung for ${HANG_MS} ms`);
  }
  return winner;
}

/** Opens the FIFO's other end without blocking the test (so a hung open on it returns). */
async function releaseFifo(path: string): Promise<void> {
  const writer = await Deno.open(path, { read: true, write: true }).catch(() => null);
  writer?.close();
}

async function mkfifo(path: string): Promise<void> {
  const { success, stderr } = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (!success) throw new Error(`mkfifo failed: ${new TextDecoder().decode(stderr)}`);
}

function notRegular(op: string, path: string): string {
  return `cannot ${op} "${path}": not a regular file`;
}

const fifoTest =
  "special files: a FIFO (or a link to one) is refused by read, write and edit without hanging";
Deno.test({
  name: fifoTest,
  ignore: skipUnless(fifoTest, cannotRun("mkfifo")),
  async fn() {
    await using box = await adversarialSandbox();
    const fifo = join(box.root, "pipe");
    await mkfifo(fifo);
    await Deno.symlink("pipe", join(box.root, "pipe_link"));
    let cases = 0;
    for (const readStreamMinSize of [0, 10 * 1024 * 1024]) {
      for (const policy of [true, false]) {
        const tools = createFsTools({ fs: box.fs, policy, config: { readStreamMinSize } });
        for (const path of ["pipe", "pipe_link"]) {
          for (const op of ["read", "write", "edit"] as const) {
            const result = await noHang(
              `${op} ${path}`,
              () => tools.execute(op, argsFor(op, path)),
              () => releaseFifo(fifo),
            );
            assertError(result, "FS_NOT_REGULAR_FILE", notRegular(op, path));
            cases++;
          }
          const list = await noHang(`list ${path}`, () => tools.execute("list", { path }));
          assertError(list, "FS_NOT_DIRECTORY", `cannot list "${path}": not a directory`);
          cases++;
        }
      }
    }
    const listing = await box.tools.execute("list", {});
    assert.match(listing.content, /\npipe@\n/);
    assert.equal((await Deno.lstat(fifo)).isFifo, true, "the FIFO was replaced");
    figure("special files", `${cases} FIFO cases, none hung`);
  },
});

const socketTest = "special files: a Unix socket is refused by read, write and edit";
Deno.test({
  name: socketTest,
  ignore: skipUnless(socketTest, granted({ name: "net" }) ? null : "needs --allow-net"),
  async fn() {
    await using box = await adversarialSandbox();
    const path = join(box.root, "sock");
    const listener = Deno.listen({ transport: "unix", path });
    try {
      for (const op of ["read", "write", "edit"] as const) {
        const result = await noHang(`${op} sock`, () => box.tools.execute(op, argsFor(op, "sock")));
        assertError(result, "FS_NOT_REGULAR_FILE", notRegular(op, "sock"));
      }
      assert.equal((await Deno.lstat(path)).isSocket, true);
    } finally {
      listener.close();
    }
  },
});

Deno.test("special files: /dev/zero, /dev/urandom and friends through a link are outside the root", async () => {
  await using box = await adversarialSandbox();
  const devices = ["/dev/zero", "/dev/urandom", "/dev/null", "/dev/stdin", "/proc/self/mem"];
  for (const device of devices) {
    const name = device.slice(1).replaceAll("/", "_");
    await Deno.symlink(device, join(box.root, name));
    for (const op of OPS) {
      const result = await noHang(`${op} ${name}`, () => box.tools.execute(op, argsFor(op, name)));
      assertError(result, "FS_OUTSIDE_ROOT", `cannot ${op} "${name}": outside the permitted roots`);
    }
  }
});

/** Deno guards /dev beyond --allow-read: only --allow-all may resolve it. */
function devAccess(): string | null {
  try {
    Deno.realPathSync("/dev");
    return null;
  } catch {
    return "needs --allow-all (Deno guards /dev)";
  }
}

const devRootTest = "special files: in a root holding devices, read never opens one";
Deno.test({
  name: devRootTest,
  ignore: skipUnless(devRootTest, devAccess()),
  async fn() {
    const tools = createFsTools({
      fs: new LocalFileSystem({ roots: [{ path: "/dev", write: false }] }),
      config: { readStreamMinSize: 0 },
    });
    let cases = 0;
    for (const name of ["zero", "urandom", "random", "null", "full", "tty", "stdin", "fd/0"]) {
      const exists = await Deno.stat(join("/dev", name)).then(() => true, () => false);
      if (!exists) continue;
      const result = await noHang(
        `read /dev/${name}`,
        () => tools.execute("read", { file_path: name }),
      );
      // /dev/stdin and /dev/fd/0 link to wherever stdin is: a pipe, a tty, or outside /dev.
      assert.ok(
        ["FS_NOT_REGULAR_FILE", "FS_OUTSIDE_ROOT", "FS_NOT_FOUND"].includes(
          result.error?.code ?? "",
        ),
        `${name}: ${result.content}`,
      );
      cases++;
    }
    assert.ok(cases >= 3, `only ${cases} devices found`);
  },
});

const mknodTest = "special files: a character device made inside the root is refused";
Deno.test({
  name: mknodTest,
  ignore: skipUnless(mknodTest, cannotRun("mknod")),
  async fn() {
    await using box = await adversarialSandbox();
    const path = join(box.root, "zero_dev");
    const made = await new Deno.Command("mknod", { args: [path, "c", "1", "5"], stderr: "null" })
      .output();
    if (!made.success) {
      console.warn(`%cskipped%c "${mknodTest}": mknod is not permitted here`, "color: yellow", "");
      return;
    }
    for (const op of ["read", "write", "edit"] as const) {
      const result = await noHang(
        `${op} zero_dev`,
        () => box.tools.execute(op, argsFor(op, "zero_dev")),
      );
      assertError(result, "FS_NOT_REGULAR_FILE", notRegular(op, "zero_dev"));
    }
    assert.equal((await Deno.lstat(path)).isCharDevice, true);
  },
});

Deno.test("special files: a directory is not a regular file for read, write or edit", async () => {
  await using box = await adversarialSandbox();
  await Deno.mkdir(join(box.root, "dir"));
  for (const op of ["read", "write", "edit"] as const) {
    for (const path of ["dir", "dir/", "."]) {
      assertError(await box.tools.execute(op, argsFor(op, path)), "FS_NOT_REGULAR_FILE");
    }
  }
});
