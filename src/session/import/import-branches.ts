import type { ImportEntry } from './import-model.js';

/**
 * The branches of an imported tree, each as the entries from its root to its leaf, the branch the
 * agent would continue last. Tool results are not branches of their own: each hangs on the reply
 * whose calls it answers (Claude Code writes one as a child of its call; a linear log as the next
 * entry), so the leaves are the messages no other message follows, and each reply on a path is
 * followed by its results.
 */
export function importBranches(entries: readonly ImportEntry[], activeLeaf?: string): ImportEntry[][] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const effective = new Map<string, string | null>();
  /** The nearest ancestor that is not a tool result. */
  const messageParent = (entry: ImportEntry): string | null => {
    const known = effective.get(entry.id);
    if (known !== undefined) return known;
    let parent = entry.parentId;
    const seen = new Set<string>([entry.id]);
    while (parent !== null) {
      const up = byId.get(parent);
      if (!up || seen.has(parent)) {
        parent = up ? null : parent;
        break;
      }
      if (up.body.kind !== 'result') break;
      seen.add(parent);
      parent = up.parentId;
    }
    const resolved = parent !== null && byId.has(parent) ? parent : null;
    effective.set(entry.id, resolved);
    return resolved;
  };
  const hasChild = new Set<string>();
  const results = new Map<string, ImportEntry[]>();
  for (const entry of entries) {
    const parent = messageParent(entry);
    if (parent === null) continue;
    if (entry.body.kind === 'result') {
      const list = results.get(parent) ?? [];
      list.push(entry);
      results.set(parent, list);
    } else hasChild.add(parent);
  }
  const leaves = entries.filter((entry) => entry.body.kind !== 'result' && !hasChild.has(entry.id));
  const active = activeLeaf && byId.get(activeLeaf)?.body.kind !== 'result' ? byId.get(activeLeaf) : leaves.at(-1);
  const ordered = active ? [...leaves.filter((leaf) => leaf !== active), active] : leaves;
  return ordered.map((leaf) => {
    const path: ImportEntry[] = [];
    const seen = new Set<string>();
    for (let at: ImportEntry | undefined = leaf; at && !seen.has(at.id); at = byId.get(messageParent(at) ?? '')) {
      seen.add(at.id);
      path.push(...[...(results.get(at.id) ?? [])].reverse(), at);
    }
    return path.reverse();
  });
}
