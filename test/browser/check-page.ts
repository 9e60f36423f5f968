import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, layoutProblems, type LayoutProblems } from './accessibility.js';

export const DESKTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };

/** axe-core on the page as it is: seatflow's own pages have no violation. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${name}: ${violations.map((v) => `${v.id} (${v.help}) at ${v.nodes.join(', ')}`).join('; ')}`).toEqual([]);
}

function expectLaidOut(where: string, found: LayoutProblems): void {
  expect(found.pageWidth, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(found.viewportWidth);
  expect(found.overflowing.join('\n'), `${where}: wider than their container`).toBe('');
  expect(found.actionsOffScreen.join('\n'), `${where}: row actions off screen`).toBe('');
  expect(found.smallTargets.join('\n'), `${where}: targets too small`).toBe('');
  expect(found.brokenBadges.join('\n'), `${where}: badges broken over two lines`).toBe('');
}

/**
 * One page as people see it, at 1366×768 and on a 390×844 phone (device scale 2, touch): no element wider than its
 * container, each row's action on screen without scrolling sideways, targets of 24 px (44 px on the phone), no axe
 * violation; a whole-page screenshot of each into `dir` as `<name>-desktop.png` and `<name>-phone.png`.
 */
export async function checkPage(page: Page, dir: string, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await expectAccessible(page, name);
  expectLaidOut(name, await layoutProblems(page, 24));
  await page.screenshot({ path: path.join(dir, `${name}-desktop.png`), fullPage: true });
  // The phone through the DevTools protocol, on the page as it is: its width, its pixel density and touch.
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: PHONE.width, height: PHONE.height, deviceScaleFactor: 2, mobile: true });
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true });
    await page.waitForFunction(`document.documentElement.clientWidth === ${PHONE.width}`);
    expectLaidOut(`${name} at 390 px`, await layoutProblems(page, 44));
    await expectAccessible(page, `${name} at 390 px`);
    const { cssContentSize } = (await cdp.send('Page.getLayoutMetrics')) as { cssContentSize: { height: number } };
    const shot = (await cdp.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: { x: 0, y: 0, width: PHONE.width, height: Math.ceil(cssContentSize.height), scale: 1 } })) as { data: string };
    writeFileSync(path.join(dir, `${name}-phone.png`), Buffer.from(shot.data, 'base64'));
  } finally {
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
    await cdp.send('Emulation.clearDeviceMetricsOverride');
    await cdp.detach();
    await page.setViewportSize(DESKTOP);
  }
}
