/**
 * The provider conformance suite: checks that an {@linkcode FsProvider} keeps the seam's contract
 * (roots and containment, stat, listing, whole and streamed reads, writes under preconditions,
 * edits, versions, whole-entry moves and removals, the optional search fast paths,
 * serialization, abort), directly and through the tools: each member of the seam is checked.
 *
 * @module
 */

import type { ConformanceCheck, ProviderFactory } from "./fixture.ts";
import { entryChecks } from "./_entry_checks.ts";
import { optionalChecks } from "./_optional_checks.ts";
import { seamChecks } from "./_seam_checks.ts";
import { toolChecks } from "./_tool_checks.ts";

/** Options of {@linkcode providerConformance}. */
export interface ProviderConformanceOptions {
  /**
   * Names (or name prefixes, such as a clause `"C7.2"`) of checks to skip, for what a provider
   * cannot do. A skipped check still shows, as ignored.
   * @default {[]}
   */
  skip?: readonly string[];
}

/**
 * The conformance checks over a provider factory, as named async functions, for a test runner
 * of your choice.
 *
 * @param factory Builds the provider over a fixture layout (see {@linkcode ProviderFactory}).
 * @returns The checks, each citing its contract clause in its name.
 *
 * @example Run the checks against the in-memory provider
 * ```ts
 * import assert from "node:assert/strict";
 * import { conformanceChecks } from "./provider_conformance.ts";
 * import { memoryFixtures } from "./memory_fixtures.ts";
 *
 * const checks = conformanceChecks(memoryFixtures());
 * assert.ok(checks.length > 10);
 * for (const check of checks) await check.fn();
 * ```
 */
export function conformanceChecks(factory: ProviderFactory): ConformanceCheck[] {
  return [
    ...seamChecks(factory),
    ...entryChecks(factory),
    ...optionalChecks(factory),
    ...toolChecks(factory),
  ];
}

/**
 * Registers one `Deno.test` per conformance check, named `<name>: <check>`.
 *
 * @param name The provider's name, prefixed to every test name.
 * @param factory Builds the provider over a fixture layout.
 * @param options Checks to skip.
 *
 * @example In a test file of your provider
 * ```ts ignore
 * import { localFixtures, providerConformance } from "@toolfs/fs/testing";
 *
 * providerConformance("LocalFileSystem", localFixtures());
 * ```
 */
export function providerConformance(
  name: string,
  factory: ProviderFactory,
  options: ProviderConformanceOptions = {},
): void {
  const skip = options.skip ?? [];
  for (const check of conformanceChecks(factory)) {
    Deno.test({
      name: `${name}: ${check.name}`,
      ignore: skip.some((prefix) => check.name.startsWith(prefix)),
      fn: check.fn,
    });
  }
}
