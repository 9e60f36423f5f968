import type { ChangeStory } from '../requests/change-story.js';
import { timeOf } from './format.js';
import { html, type SafeHtml } from './html.js';

/** Who asked for a change, with the ticket or reason, and who approved it: facts of its page (nothing when unknown). */
export function storyFacts(story: ChangeStory | undefined, zone?: string): SafeHtml {
  if (story === undefined) return html``;
  return html`<div><dt>Submitted by</dt><dd>${story.requestedBy} <span class="muted small">${timeOf(story.requestedAt, zone)}</span></dd></div>
<div><dt>Ticket or reason</dt><dd>${story.reason ?? '—'}</dd></div>
${story.approvedBy === undefined ? '' : html`<div><dt>Approved by</dt><dd>${story.approvedBy}${story.approvedAt === undefined ? '' : html` <span class="muted small">${timeOf(story.approvedAt, zone)}</span>`}</dd></div>`}`;
}

/** A file's name as its uploader knew it: the last part of a path a CLI run recorded (`/tmp/x/leavers.csv` → `leavers.csv`). */
export function fileNameOf(source: string): string {
  return source.split(/[\\/]/).filter((part) => part !== '').at(-1) ?? source;
}
