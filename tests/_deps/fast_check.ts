// fast-check, for tests only. deno.json maps "fast-check" to this file rather than to the npm
// package because `deno task` installs every npm package deno.json's imports name before it runs
// any task (denoland/deno#30887), and a fresh clone's `deno task playground` should not download
// test tools. The version is pinned here.
export * from "npm:fast-check@4.11.0";
export { default } from "npm:fast-check@4.11.0";
