import { html, type SafeHtml } from './html.js';

/** What a badge's colour says; the stylesheet has one rule per tone, never one per state. */
type Tone = 'ok' | 'info' | 'busy' | 'wait' | 'warn' | 'bad' | 'muted';

/**
 * Every state, outcome, verdict and phase a page shows, with its tone and the words people read. A new state is one
 * entry here; a state missing here is still shown, as its own text in a neutral badge (never dropped).
 */
const BADGES: Readonly<Record<string, { tone: Tone; words?: string }>> = {
  // What a batch is doing (batch-activity.ts), and a schedule's last batch.
  submitting: { tone: 'info' },
  queued: { tone: 'info' },
  running: { tone: 'busy' },
  waiting: { tone: 'wait' },
  cancelling: { tone: 'muted' },
  stopped: { tone: 'warn' },
  finished: { tone: 'ok' },
  cancelled: { tone: 'muted' },
  // Row outcomes (row-outcome.ts).
  succeeded: { tone: 'ok' },
  unchanged: { tone: 'info' },
  skipped: { tone: 'warn' },
  failed: { tone: 'bad' },
  unknown: { tone: 'warn' },
  // Plan verdicts (planned-row.ts).
  change: { tone: 'ok' },
  'no-op': { tone: 'info' },
  refused: { tone: 'bad' },
  'not-found': { tone: 'warn' },
  conflict: { tone: 'warn' },
  invalid: { tone: 'bad' },
  // Leaver verdicts of an offboarding plan.
  'deactivate-now': { tone: 'ok', words: 'deactivate now' },
  'deactivate-on-date': { tone: 'ok', words: 'on the leave date' },
  'already-deactivated': { tone: 'info', words: 'already deactivated' },
  // Phases of a person in a lifecycle (leavers, joiners, movers), and a workflow's states.
  scheduled: { tone: 'info' },
  deactivating: { tone: 'busy' },
  holding: { tone: 'warn' },
  removing: { tone: 'busy' },
  removed: { tone: 'ok' },
  undone: { tone: 'muted' },
  // What an undo's rows did (offboarding-status.ts): its reactivation to come, or not made.
  undoing: { tone: 'busy' },
  'undo-failed': { tone: 'bad', words: 'undo failed' },
  adding: { tone: 'busy' },
  reactivating: { tone: 'busy' },
  seating: { tone: 'busy' },
  moving: { tone: 'busy' },
  joined: { tone: 'ok' },
  moved: { tone: 'ok' },
  open: { tone: 'warn' },
  // Change requests (approval-record.ts).
  'awaiting-approval': { tone: 'warn', words: 'awaiting approval' },
  approved: { tone: 'warn' },
  rejected: { tone: 'bad' },
  // Kinds and modes.
  joiner: { tone: 'ok' },
  mover: { tone: 'info' },
  leaver: { tone: 'warn' },
  applies: { tone: 'ok' },
  'dry-run': { tone: 'info', words: 'dry run' },
};

/** A badge for `state`: its words and tone from BADGES, `data-state` naming it for tests and scripts. */
export function stateBadge(state: string, words?: string): SafeHtml {
  const known = BADGES[state];
  return html`<span class="badge tone-${known?.tone ?? 'neutral'}" data-state="${state}">${words ?? known?.words ?? state}</span>`;
}

/** The SIMULATION mark of a batch, offboarding or request made against the embedded reference server. */
export function simBadge(sim: boolean): SafeHtml | '' {
  return sim ? html`<span class="badge sim">SIMULATION</span>` : '';
}
