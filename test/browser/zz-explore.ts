import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { startTestRedis } from '../helpers/redis-server.js';
import { launchChromium, startServe } from './dashboard-browser.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const redis = await startTestRedis();
const serve = await startServe({ REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: redis.prefix(), SEATFLOW_DATA_DIR: os.tmpdir() + '/zzexp' });
const browser = await launchChromium();
const page = await browser.context.newPage();
mkdirSync('/tmp/i20/shots', { recursive: true });
try {
  await page.goto(`${serve.url}/login`);
  const axe = async (name: string) => {
    await page.evaluate(axeSource);
    const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.failureSummary).slice(0, 4) })))`)) as unknown[];
    console.log(name, JSON.stringify(result, null, 1));
  };
  await axe('login');
  await page.getByLabel('Control token').fill(serve.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/batches$/);
  for (const p of process.argv.slice(2)) {
    await page.goto(`${serve.url}${p}`);
    await axe(p);
    await page.screenshot({ path: `/tmp/i20/shots/${p.replace(/\W/g, '_')}.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await axe(p + ' @390');
    const widths = await page.evaluate('({ doc: document.documentElement.scrollWidth, win: window.innerWidth })');
    console.log('widths', JSON.stringify(widths));
    await page.screenshot({ path: `/tmp/i20/shots/${p.replace(/\W/g, '_')}-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 860 });
  }
} finally {
  await browser.close();
  await serve.stop();
  await redis.stop();
}
