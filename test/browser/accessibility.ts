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
 * Runs axe-core on the page as it is now and returns its violations (its default rules: WCAG 2.x A and AA and best
 * practices). Evaluated through the DevTools protocol, so the page's Content-Security-Policy, which rightly forbids
 * inline script, does not stand in the way. (A string, not a function: the project has no DOM types.)
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if ((await page.evaluate('typeof window.axe')) !== 'object') await page.evaluate(AXE_SOURCE);
  return (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as AxeViolation[];
}
