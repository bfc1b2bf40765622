/**
 * The call form's example arguments for the fixture workspace (the fixture paths exist there),
 * per tool: the server sends them with the definitions (./examples.ts), and the UI starts with
 * them before those arrive (../ui/state.ts). Data only, so the UI bundle can import it.
 *
 * @module
 */

/** The examples of the fixture workspace (the fixture paths exist there). */
export const FIXTURE_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = Object
  .freeze({
    list: {},
    read: { file_path: "notes/todo.md" },
    write: {
      file_path: "notes/new-note.md",
      content: "# A new note\n\nWritten from the playground.\n",
    },
    edit: {
      file_path: "src/lib/text/greet.ts",
      old_string: "// TODO: localize",
      new_string: "// localized in v2",
    },
    glob: { pattern: "**/*.ts" },
    grep: { pattern: "TODO" },
    move: { source_path: "notes/todo.md", destination_path: "notes/archive/todo.md" },
    delete: { path: "notes/empty.txt" },
    patch: {
      patch: "*** Begin Patch\n*** Add File: notes/patched.md\n+Added by a patch.\n*** End Patch",
    },
  });
