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

export function requirePath(value: unknown): string {
  if (typeof value !== "string" || value === "") throw invalid(VALIDATION_MESSAGES.filePath);
  return value;
}

export function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}
