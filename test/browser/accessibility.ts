import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core from the installed package, put into the page as it is: nothing is fetched. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core on the page as it is now and returns its violations (every rule of its default set: WCAG 2.x A and AA
 * and best practices). Evaluated through the DevTools protocol, so the page's Content-Security-Policy, which rightly
 * forbids inline script, does not stand in the way. (A string, not a function: the project has no DOM types.)
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if ((await page.evaluate('typeof window.axe')) !== 'object') await page.evaluate(AXE_SOURCE);
  return (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as AxeViolation[];
}

/** What a phone-width page must hold: no sideways scroll of the page, every section link on screen, badges on one line. */
export interface NarrowLayout {
  pageWidth: number;
  viewportWidth: number;
  /** Section links of the navigation that are not fully on screen. */
  navOffScreen: string[];
  /** Badges whose text wrapped onto a second line. */
  brokenBadges: string[];
  /** Table boxes: how wide their table is against the box (a wider table scrolls inside it). */
  tableBoxes: Array<{ label: string; scrollWidth: number; clientWidth: number; overflowX: string; tabIndex: number }>;
}

export async function narrowLayout(page: Page): Promise<NarrowLayout> {
  return (await page.evaluate(`(() => {
    const vw = window.innerWidth;
    const navOffScreen = [...document.querySelectorAll('nav[aria-label="Sections"] a')].filter((a) => { const r = a.getBoundingClientRect(); return r.width === 0 || r.left < 0 || r.right > vw + 0.5; }).map((a) => a.textContent);
    const brokenBadges = [...document.querySelectorAll('.badge')].filter((b) => { const line = parseFloat(getComputedStyle(b).lineHeight) || parseFloat(getComputedStyle(b).fontSize) * 1.45; return b.getBoundingClientRect().height > line * 1.5 + 4; }).map((b) => b.textContent);
    const tableBoxes = [...document.querySelectorAll('.table-scroll')].map((box) => ({ label: box.getAttribute('aria-label'), scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, overflowX: getComputedStyle(box).overflowX, tabIndex: box.tabIndex }));
    return { pageWidth: document.documentElement.scrollWidth, viewportWidth: vw, navOffScreen, brokenBadges, tableBoxes };
  })()`)) as NarrowLayout;
}
