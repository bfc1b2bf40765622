// Argument checks shared by the executors (CONTRACT C1.4, C4). Private to src/tools.

import { FsError } from "../fs_error.ts";
import { VALIDATION_MESSAGES } from "../render/errors.ts";

/** `null` counts as absent (strict-mode function calling sends `null` for omitted optionals). */
export function optional(value: unknown): unknown {
  return value === null ? undefined : value;
}

export function invalid(message: string): FsError {
  return new FsError("FS_INVALID_ARGUMENT", { message });
}

/** A required non-empty string, else `FS_INVALID_ARGUMENT` with `message`. */
export function requireString(value: unknown, message: string): string {
  if (typeof value !== "string" || value === "") throw invalid(message);
  return value;
}

/** `file_path`, required (C4). */
export function requirePath(value: unknown): string {
  return requireString(value, VALIDATION_MESSAGES.filePath);
}

/** An optional non-empty string (`null` is absent), else `FS_INVALID_ARGUMENT` with `message`. */
export function optionalString(value: unknown, message: string): string | undefined {
  const given = optional(value);
  return given === undefined ? undefined : requireString(given, message);
}

export function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/**
 * The longest glob pattern taken, in UTF-16 code units; the tools refuse longer ones with a
 * validation error (issue 19: the matcher threw on 64 Ki characters, an `FS_IO_ERROR`).
 */
export const GLOB_MAX_LENGTH = 4096;
