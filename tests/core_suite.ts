// The core suite in one module: what the design card's `deno test --allow-read --allow-write`
// runs (deno.json's `test.include` names this file alone). Deno starts a fresh runtime for each
// test module it runs, about a quarter of a second of CPU each on a 2-core VM even for an empty
// file; run as 85 modules the core suite spent two thirds of its CPU there (69 s against 23 s as
// one module, the same 701 tests). Each file below still runs alone
// (`deno test -A --no-prompt <file>`), and `deno task test:all` runs every file under tests/ one
// module each. tests/test_tasks_test.ts fails when a file of tests/contract/ or tests/unit/ is
// missing here.

import "./contract/c10_c11_limit_test.ts";
import "./contract/c10_glob_paging_test.ts";
import "./contract/c10_glob_test.ts";
import "./contract/c10_sized_kinds_test.ts";
import "./contract/c11_grep_paging_test.ts";
import "./contract/c11_grep_test.ts";
import "./contract/c11_grep_time_test.ts";
import "./contract/c11_pattern_limits_test.ts";
import "./contract/c11_searched_count_test.ts";
import "./contract/c12_hints_test.ts";
import "./contract/c12_mistakes_test.ts";
import "./contract/c15_check_modes_test.ts";
import "./contract/c15_move_delete_test.ts";
import "./contract/c15_os_refusal_test.ts";
import "./contract/c16_patch_links_test.ts";
import "./contract/c16_patch_locate_test.ts";
import "./contract/c16_patch_operations_test.ts";
import "./contract/c16_patch_recovery_test.ts";
import "./contract/c16_patch_test.ts";
import "./contract/c17_document_bounds_test.ts";
import "./contract/c17_media_test.ts";
import "./contract/c18_runtimes_test.ts";
import "./contract/c1_api_test.ts";
import "./contract/c1_definitions_test.ts";
import "./contract/c1_memory_property_test.ts";
import "./contract/c1_memory_test.ts";
import "./contract/c2_config_test.ts";
import "./contract/c3_paths_test.ts";
import "./contract/c3_unsafe_names_test.ts";
import "./contract/c4_c12_footers_and_hints_test.ts";
import "./contract/c4_list_test.ts";
import "./contract/c4_notes_texts_test.ts";
import "./contract/c4_read_only_files_test.ts";
import "./contract/c4_read_test.ts";
import "./contract/c4_read_window_test.ts";
import "./contract/c4_write_edit_test.ts";
import "./contract/c5_policy_review_test.ts";
import "./contract/c5_policy_test.ts";
import "./contract/c6_values_test.ts";
import "./contract/c7_errors_test.ts";
import "./contract/c8_presentation_test.ts";
import "./contract/c9_6_grep_observation_test.ts";
import "./contract/c9_search_test.ts";
import "./contract/provider_conformance_test.ts";
import "./docs_test.ts";
import "./mcp_parts_test.ts";
import "./search_fast_path_test.ts";
import "./test_tasks_test.ts";
import "./unit/http/http_framing_test.ts";
import "./unit/layers_test.ts";
import "./unit/policy/read_before_write_test.ts";
import "./unit/present/formats_test.ts";
import "./unit/present/result_formats_test.ts";
import "./unit/present/specs_test.ts";
import "./unit/present/texts_test.ts";
import "./unit/provider/local/edit_stream_test.ts";
import "./unit/provider/local/entries_test.ts";
import "./unit/provider/local/local_fs_test.ts";
import "./unit/provider/local/read_buffers_test.ts";
import "./unit/provider/local/read_dir_test.ts";
import "./unit/provider/local/worker_test.ts";
import "./unit/provider/memory/memory_fs_test.ts";
import "./unit/provider/roots_test.ts";
import "./unit/render/list_render_test.ts";
import "./unit/render/read_render_test.ts";
import "./unit/render/render_failure_test.ts";
import "./unit/text/close_names_test.ts";
import "./unit/text/edit_apply_test.ts";
import "./unit/text/edit_distance_test.ts";
import "./unit/text/edit_scan_test.ts";
import "./unit/text/gitignore_test.ts";
import "./unit/text/glob_match_test.ts";
import "./unit/text/grep_scan_test.ts";
import "./unit/text/line_prefixes_test.ts";
import "./unit/text/loose_match_test.ts";
import "./unit/text/match_lines_test.ts";
import "./unit/text/media_sniff_test.ts";
import "./unit/text/newlines_test.ts";
import "./unit/text/skip_search_test.ts";
import "./unit/text/unified_diff_test.ts";
import "./unit/text/utf8_test.ts";
import "./unit/tools/grep/observe_test.ts";
import "./unit/tools/patch/closest_block_test.ts";
import "./unit/tools/patch/patch_engine_test.ts";
import "./unit/tools/tool_parse_test.ts";
