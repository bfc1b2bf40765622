// playwright-core, for the browser tests only: mapped here rather than in deno.json's imports
// so that `deno task playground` does not download it (see fast_check.ts). Pinned here.
export * from "npm:playwright-core@1.65.1";
