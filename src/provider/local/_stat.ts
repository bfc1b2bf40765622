// The one rule for "is it there?" of the local provider, and small helpers on file identity.
// Private to src/provider/local.
//
// Only "no such entry" reads as `null`: the path or a parent is missing, or a parent is a file
// (NotFound, NotADirectory). Every other failure (permission refused, I/O error, link loop)
// propagates, in the synchronous variants too, so a refusal is never mistaken for an absence.

/** A file's identity: device and inode. */
export interface FileId {
  dev: number;
  ino: number | null;
}

/** Whether `error` means there is no entry at the path (the one `*OrNull` rule). */
export function isMissing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

function orNull<T>(call: () => T): T | null {
  try {
    return call();
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function orNullAsync<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** `Deno.stat`, or `null` when there is no such entry. */
export function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  return orNullAsync(() => Deno.stat(path));
}

/** `Deno.lstat`, or `null` when there is no such entry. */
export function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  return orNullAsync(() => Deno.lstat(path));
}

/** `Deno.statSync`, or `null` when there is no such entry. */
export function statSyncOrNull(path: string): Deno.FileInfo | null {
  return orNull(() => Deno.statSync(path));
}

/** `Deno.lstatSync`, or `null` when there is no such entry. */
export function lstatSyncOrNull(path: string): Deno.FileInfo | null {
  return orNull(() => Deno.lstatSync(path));
}

/** `Deno.realPathSync`, or `null` when there is no such entry. */
export function realPathSyncOrNull(path: string): string | null {
  return orNull(() => Deno.realPathSync(path));
}

/** Whether `now` is the file `made` (same device and inode). */
export function sameFile(now: FileId | null, made: FileId): boolean {
  return now !== null && now.dev === made.dev && now.ino === made.ino;
}

/** Removes `path` when it is still the file `info` (never a file that replaced it). */
export async function removeIfSame(path: string, info: FileId): Promise<boolean> {
  if (!sameFile(await lstatOrNull(path), info)) return false;
  await Deno.remove(path);
  return true;
}

/** Closes `file`, ignoring that it may be closed already. */
export function closeQuietly(file: Deno.FsFile): void {
  try {
    file.close();
  } catch {
    // already closed
  }
}
