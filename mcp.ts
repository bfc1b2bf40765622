/**
 * The MCP server entry point (placeholder until the server lands).
 *
 * @module
 */

/** Placeholder. */
export const MCP_PENDING = true;
