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
 * A glob argument (C9.3): one non-empty string or an array of 1 to 20 of them, else
 * `FS_INVALID_ARGUMENT` with `stringMessage` (not an array) or `listMessage` (a bad array).
 */
export function requireGlobs(
  value: unknown,
  stringMessage: string,
  listMessage: string,
): string | string[] {
  if (!Array.isArray(value)) return requireString(value, stringMessage);
  const good = value.length >= 1 && value.length <= 20 &&
    value.every((p) => typeof p === "string" && p !== "");
  if (!good) throw invalid(listMessage);
  return [...value] as string[];
}
