import { html, type SafeHtml } from './html.js';
import { noticeBlock, type Notice } from './notice.js';

export interface NavItem {
  href: string;
  label: string;
  section: string;
  /** Shown only when the server has this part (the ControlDeps field of the same name). */
  needs?: 'offboarding' | 'sync' | 'schedules' | 'upcoming' | 'governance' | 'provisional' | 'migrations';
}

/**
 * The dashboard's sections, in navigation order. A new section is one line here and one route module registered in
 * register-dashboard.ts. The queue board (Bull Board, /admin/queues) is not one: it is an expert view, linked from the
 * batches page (its pages are not seatflow's and do not meet the dashboard's accessibility checks).
 */
export const NAV_ITEMS: ReadonlyArray<NavItem> = [
  { href: '/batches', label: 'Batches', section: 'batches' },
  { href: '/plan', label: 'Plan a manifest', section: 'plan' },
  { href: '/offboardings/new', label: 'Offboard leavers', section: 'offboard', needs: 'offboarding' },
  { href: '/holds', label: 'Holds', section: 'holds', needs: 'offboarding' },
  { href: '/syncs/new', label: 'Sync from HR', section: 'sync', needs: 'sync' },
  { href: '/upcoming', label: 'Joiners, movers, leavers', section: 'upcoming', needs: 'upcoming' },
  { href: '/migrations', label: 'Migrations', section: 'migrations', needs: 'migrations' },
  { href: '/schedules', label: 'Schedules', section: 'schedules', needs: 'schedules' },
  { href: '/provisional', label: 'Provisional Members', section: 'provisional', needs: 'provisional' },
  { href: '/approvals', label: 'Approvals', section: 'approvals', needs: 'governance' },
  { href: '/audit', label: 'Audit', section: 'audit', needs: 'governance' },
];

export interface PageOptions {
  title: string;
  /** The NAV_ITEMS section this page belongs to (marked as current). */
  section?: string;
  /** Shown as a banner on every page when the target is the embedded reference server. */
  sim?: boolean;
  targetLabel?: string;
  /** Present on signed-in pages: the sign-out form needs a CSRF token. */
  csrfToken?: string;
  /** Who is signed in, shown beside Sign out: every change made from these pages is recorded as theirs. */
  operator?: { name: string; role: string };
  /** What the form just posted did (post, redirect, get): shown first, focused. */
  notice?: Notice;
  /** The sections this server has; default all of NAV_ITEMS. */
  navItems?: ReadonlyArray<NavItem>;
  body: SafeHtml;
}

/** The id of the page's one live region: live parts update it out of band when there is news to announce. */
export const ANNOUNCER_ID = 'announcer';

/**
 * The page: a banner (brand, sections, sign-out, and which service it acts on), then the main content. Everything
 * sits in a landmark, so that a screen reader's landmark list reaches all of it.
 */
export function page(options: PageOptions): SafeHtml {
  const signedIn = options.csrfToken !== undefined;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowScriptTags":false}'>
<title>${options.title} · seatflow</title>
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="stylesheet" href="/assets/dashboard.css">
<script src="/assets/htmx.min.js" defer></script>
<script src="/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<div class="bar">
  <a class="brand" href="/batches">seatflow</a>
  ${signedIn
    ? html`<nav aria-label="Sections"><ul>${(options.navItems ?? NAV_ITEMS).map(
        (item) => html`<li><a href="${item.href}"${item.section === options.section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
      )}</ul></nav>
  <div class="who">${options.operator === undefined ? '' : html`<span class="operator">Signed in as <strong>${options.operator.name}</strong> <span class="role">(${options.operator.role})</span></span>`}<form class="signout" method="post" action="/logout"><input type="hidden" name="_csrf" value="${options.csrfToken}"><button type="submit" class="link">Sign out</button></form></div>`
    : ''}
</div>
${options.sim === true ? html`<p class="sim-banner"><strong>SIMULATION</strong> — acting on the embedded reference server with demo data, not the real service.</p>` : ''}
${options.targetLabel !== undefined && options.sim !== true ? html`<p class="target">Target: ${options.targetLabel}</p>` : ''}
</header>
<main id="main">
<div id="${ANNOUNCER_ID}" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>
${options.notice === undefined ? '' : noticeBlock(options.notice)}
${options.body}
</main>
</body>
</html>`;
}
