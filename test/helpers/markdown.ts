/** The anchors of a Markdown file's headings, as GitHub makes them (lower case, punctuation dropped, spaces to dashes, -1, -2 for repeats). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (match === null) continue;
    const slug = match[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every `[text](target)` and `![alt](target)` link outside code blocks and code spans. */
export function markdownLinks(markdown: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push(match[1]!);
  }
  return links;
}

/** The lines of the code blocks whose fence's info string is `lang marker`, e.g. ```sh runnable. */
export function markedBlocks(markdown: string, marker: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] | undefined;
  let fenced = false;
  for (const line of markdown.split('\n')) {
    const fence = /^\s*```(.*)$/.exec(line);
    if (fence !== null) {
      if (!fenced) {
        fenced = true;
        current = fence[1]!.trim().split(/\s+/).includes(marker) ? [] : undefined;
      } else {
        fenced = false;
        if (current !== undefined) blocks.push(current);
        current = undefined;
      }
      continue;
    }
    current?.push(line);
  }
  return blocks;
}
