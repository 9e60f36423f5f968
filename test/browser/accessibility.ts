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

/**
 * What a page must hold at any width: nothing wider than its container (the page never scrolls sideways, no table
 * pushes out of its box, no text is cut), every row's action on screen, and every control a target of at least
 * `minTarget` px each way (WCAG 2.5.8; a link inside a sentence is excepted, as the rule excepts it; a checkbox or a
 * file input counts with its label, which toggles or opens it).
 */
export interface LayoutProblems {
  pageWidth: number;
  viewportWidth: number;
  /** Elements whose content is wider than they are (`scrollWidth` over `clientWidth`). */
  overflowing: string[];
  /** Actions of table rows not fully on screen. */
  actionsOffScreen: string[];
  /** Controls smaller than the target size. */
  smallTargets: string[];
  /** Badges whose text wrapped onto a second line. */
  brokenBadges: string[];
}

export async function layoutProblems(page: Page, minTarget: number): Promise<LayoutProblems> {
  return (await page.evaluate(`((minTarget) => {
    const vw = document.documentElement.clientWidth;
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className.trim() !== '' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' "' + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 50) + '"';
    const hidden = (el) => el.closest('.visually-hidden, .skip, svg, #announcer, #queue-board') !== null || [...document.querySelectorAll('thead')].some((head) => head.contains(el) && getComputedStyle(head).position === 'absolute');
    const overflowing = [];
    for (const el of document.querySelectorAll('body *')) {
      if (hidden(el) || el.matches('input, select, textarea, option, progress')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'inline' || style.display === 'none' || el.clientWidth === 0) continue;
      if (el.scrollWidth > el.clientWidth + 1) overflowing.push(name(el) + ' (' + el.scrollWidth + ' px in ' + el.clientWidth + ')');
    }
    const actionsOffScreen = [...document.querySelectorAll('.action-cell a, .action-cell button')].filter((el) => { const r = el.getBoundingClientRect(); return r.width === 0 || r.left < -0.5 || r.right > vw + 0.5; }).map(name);
    // A link is in a sentence when text of its own parent runs beside it.
    const inSentence = (el) => el.tagName === 'A' && [...el.parentElement.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim() !== '');
    const smallTargets = [];
    for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary, textarea')) {
      if (hidden(el) || inSentence(el)) continue;
      let r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const label = el.matches('input[type=checkbox], input[type=radio], input[type=file]') && el.id ? document.querySelector('label[for="' + el.id + '"]') : null;
      if (label !== null) { const l = label.getBoundingClientRect(); r = { width: Math.max(r.right, l.right) - Math.min(r.left, l.left), height: Math.max(r.bottom, l.bottom) - Math.min(r.top, l.top) }; }
      if (r.width < minTarget - 0.5 || r.height < minTarget - 0.5) smallTargets.push(name(el) + ' (' + Math.round(r.width) + ' x ' + Math.round(r.height) + ')');
    }
    const brokenBadges = [...document.querySelectorAll('.badge')].filter((b) => { const line = parseFloat(getComputedStyle(b).lineHeight) || parseFloat(getComputedStyle(b).fontSize) * 1.45; return b.getBoundingClientRect().height > line * 1.5 + 4; }).map((b) => b.textContent);
    return { pageWidth: document.documentElement.scrollWidth, viewportWidth: vw, overflowing, actionsOffScreen, smallTargets, brokenBadges };
  })(${minTarget})`)) as LayoutProblems;
}
