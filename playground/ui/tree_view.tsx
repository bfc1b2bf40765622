/**
 * The workspace tree. Clicking a file prefills `read`, a directory `list`.
 *
 * @module
 */

import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { TreeNode } from "./api.ts";

/** Props of {@linkcode TreeView}. */
export interface TreeViewProps {
  /** The root node. */
  tree: TreeNode;
  /** Workspace-relative paths of read-only roots. */
  readOnly: readonly string[];
  /** Called with the clicked node. */
  onPick: (node: TreeNode) => void;
  /** Called with the double-clicked node: prefill and run. */
  onRun: (node: TreeNode) => void;
}

function initiallyOpen(tree: TreeNode): Set<string> {
  return new Set(
    (tree.children ?? [])
      .filter((n) => n.type === "directory" && (n.total ?? 0) <= 12)
      .map((n) => n.path),
  );
}

function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Renders the tree with collapsible directories.
 *
 * @param props The tree and the pick handlers.
 * @returns The tree.
 */
export function TreeView(props: TreeViewProps): JSX.Element {
  const { tree, readOnly, onPick, onRun } = props;
  const [open, setOpen] = useState<Set<string>>(() => initiallyOpen(tree));

  function toggle(path: string): void {
    const next = new Set(open);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setOpen(next);
  }

  function row(node: TreeNode, depth: number): JSX.Element {
    const isDir = node.type === "directory";
    const isOpen = open.has(node.path);
    const hidden = (node.total ?? 0) - (node.children?.length ?? 0);
    const suffix = isDir ? "/" : node.type === "file" ? "" : "@";
    return (
      <li key={node.path} role="treeitem" aria-expanded={isDir ? isOpen : undefined}>
        <div class="tree-row" style={{ paddingLeft: `${depth * 14 + 6}px` }}>
          {isDir
            ? (
              <button
                type="button"
                class="caret"
                aria-label={isOpen ? `collapse ${node.name}` : `expand ${node.name}`}
                onClick={() => toggle(node.path)}
                tabIndex={-1}
              >
                {isOpen ? "▾" : "▸"}
              </button>
            )
            : <span class="caret" />}
          <button
            type="button"
            class={`tree-name ${node.type}`}
            data-testid="tree-node"
            data-path={node.path}
            title={isDir ? `list ${node.path}` : `read ${node.path} (double-click to run in A)`}
            onClick={() => {
              onPick(node);
              if (isDir && !isOpen) toggle(node.path);
            }}
            onDblClick={() => onRun(node)}
            onKeyDown={(e) => {
              if (isDir && e.key === "ArrowRight" && !isOpen) toggle(node.path);
              if (isDir && e.key === "ArrowLeft" && isOpen) toggle(node.path);
            }}
          >
            {node.name}
            {suffix}
          </button>
          {readOnly.includes(node.path) ? <span class="tag">read-only</span> : null}
          {node.outside ? <span class="tag" title="a link out of the roots">outside</span> : null}
          {node.error
            ? <span class="tag bad" data-testid="tree-error" title={node.error}>unreadable</span>
            : null}
          {node.type === "file" && node.size !== undefined
            ? <span class="size">{sizeLabel(node.size)}</span>
            : null}
          {isDir && node.total !== undefined && !isOpen
            ? <span class="size">{node.total}</span>
            : null}
        </div>
        {isDir && isOpen && node.children
          ? (
            <ul role="group">
              {node.children.map((child) => row(child, depth + 1))}
              {hidden > 0
                ? (
                  <li class="tree-more" style={{ paddingLeft: `${(depth + 1) * 14 + 26}px` }}>
                    … {hidden} more — list it to see them
                  </li>
                )
                : null}
            </ul>
          )
          : null}
      </li>
    );
  }

  return (
    <ul class="tree" role="tree" data-testid="tree">
      {(tree.children ?? []).map((child) => row(child, 0))}
    </ul>
  );
}
