import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseRate, serviceRegionOf } from '../../../src/core/config.js';
import { UsageError } from '../../../src/core/seatflow-error.js';
import { useTempDirs } from '../../helpers/temp-dirs.js';

const tempDir = useTempDirs();

function tempFile(content: string): string {
  const dir = tempDir('seatflow-config-');
  const file = path.join(dir, 'config.json');
  writeFileSync(file, content);
  return file;
}

describe('loadConfig', () => {
  it('uses config/default.json when nothing else is given', () => {
    const config = loadConfig({ env: {} });
    expect(config.api.baseUrl).toBe('https://api.smartsheet.com/2.0');
    expect(config.rateLimit).toEqual({ requests: 300, perSeconds: 60, headroom: 0.005, burst: 'auto' });
    expect(config.api.accessToken).toBeUndefined();
  });

  it('takes rateLimit.burst as auto or a whole number of calls, and refuses anything else', () => {
    expect(loadConfig({ env: {}, configFile: tempFile(JSON.stringify({ rateLimit: { burst: 50 } })) }).rateLimit.burst).toBe(50);
    expect(loadConfig({ env: {}, configFile: tempFile(JSON.stringify({ rateLimit: { burst: 1 } })) }).rateLimit.burst).toBe(1);
    expect(() => loadConfig({ env: {}, configFile: tempFile(JSON.stringify({ rateLimit: { burst: 0 } })) })).toThrow(/rateLimit\.burst/);
    expect(() => loadConfig({ env: {}, configFile: tempFile(JSON.stringify({ rateLimit: { burst: 'lots' } })) })).toThrow(/rateLimit\.burst/);
  });

  it('layers file < environment < flags', () => {
    const file = tempFile(JSON.stringify({ logLevel: 'debug', worker: { concurrency: 3 }, dataDir: '/from-file' }));
    const config = loadConfig({
      configFile: file,
      env: { SEATFLOW_LOG_LEVEL: 'warn', SEATFLOW_CONCURRENCY: '5', SMARTSHEET_ACCESS_TOKEN: 'tok-env' },
      flags: { worker: { concurrency: 7 } },
    });
    expect(config.dataDir).toBe('/from-file');
    expect(config.logLevel).toBe('warn');
    expect(config.worker.concurrency).toBe(7);
    expect(config.worker.shutdownGraceMs).toBe(30_000);
    expect(config.api.accessToken).toBe('tok-env');
  });

  it('refuses an access token with a line break (exit 2, like every refused token) without echoing it', () => {
    let error: unknown;
    try {
      loadConfig({ env: { SMARTSHEET_ACCESS_TOKEN: 'tok-secret\r\nX-Injected: 1' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/api.accessToken: must be printable text without spaces or line breaks/);
    expect((error as Error).message).not.toContain('tok-secret');
  });

  it('reads SEATFLOW_CONFIG when no file is given', () => {
    const file = tempFile(JSON.stringify({ redis: { queuePrefix: 'from-env-file' } }));
    expect(loadConfig({ env: { SEATFLOW_CONFIG: file } }).redis.queuePrefix).toBe('from-env-file');
  });

  it('reads a .env file in the working directory, under the real environment', () => {
    const dir = tempDir('seatflow-dotenv-');
    writeFileSync(path.join(dir, '.env'), '# seatflow\nSEATFLOW_QUEUE_PREFIX=from-dotenv\nSEATFLOW_LOG_LEVEL=debug\n');
    const before = process.env.SEATFLOW_LOG_LEVEL;
    process.env.SEATFLOW_LOG_LEVEL = 'warn';
    try {
      const config = loadConfig({ cwd: dir });
      expect(config.redis.queuePrefix).toBe('from-dotenv');
      expect(config.logLevel).toBe('warn');
    } finally {
      if (before === undefined) delete process.env.SEATFLOW_LOG_LEVEL;
      else process.env.SEATFLOW_LOG_LEVEL = before;
    }
  });

  it('refuses an invalid value and names the field', () => {
    expect(() => loadConfig({ env: { SMARTSHEET_API_BASE: 'not a url' } })).toThrow(/api\.baseUrl/);
    expect(() => loadConfig({ env: { SEATFLOW_CONCURRENCY: 'many' } })).toThrow(UsageError);
  });

  it('takes the VIEWER sunset date from SEATFLOW_VIEWER_SUNSET and refuses one that is not a date', () => {
    expect(loadConfig({ env: {} }).api.viewerSunset).toBeUndefined();
    expect(loadConfig({ env: { SEATFLOW_VIEWER_SUNSET: '2027-01-01' } }).api.viewerSunset).toBe('2027-01-01');
    expect(() => loadConfig({ env: { SEATFLOW_VIEWER_SUNSET: 'next spring' } })).toThrow(/api\.viewerSunset/);
  });

  it('keeps the reactivation window at the service\'s 30 days by default (docs/service.md#reactivation-window)', () => {
    expect(loadConfig({ env: {} }).offboarding.reactivationWindowDays).toBe(30);
  });

  it('reads the region from the base URL, or from SEATFLOW_API_REGION for another host (docs/service.md#regions)', () => {
    expect(serviceRegionOf(loadConfig({ env: {} }))).toBe('US');
    expect(serviceRegionOf(loadConfig({ env: { SMARTSHEET_API_BASE: 'https://api.smartsheetgov.com/2.0' } }))).toBe('GOV');
    expect(serviceRegionOf(loadConfig({ env: { SMARTSHEET_API_BASE: 'https://api.smartsheet.eu/2.0' } }))).toBe('EU');
    expect(serviceRegionOf(loadConfig({ env: { SMARTSHEET_API_BASE: 'https://api.smartsheet.au/2.0' } }))).toBe('AU');
    expect(serviceRegionOf(loadConfig({ env: { SMARTSHEET_API_BASE: 'http://127.0.0.1:8090/2.0' } }))).toBeUndefined();
    expect(serviceRegionOf(loadConfig({ env: { SMARTSHEET_API_BASE: 'http://127.0.0.1:8090/2.0', SEATFLOW_API_REGION: 'gov' } }))).toBe('GOV');
    expect(() => loadConfig({ env: { SEATFLOW_API_REGION: 'MARS' } })).toThrow(/api\.region/);
  });

  it('takes external sources from the config file, lower-casing domains and addresses', () => {
    const file = tempFile(JSON.stringify({ externalSources: [{ name: 'Okta', domains: ['ACME.example'], emails: ['Contractor@Partner.example'] }] }));
    expect(loadConfig({ configFile: file, env: {} }).externalSources).toEqual([{ name: 'Okta', domains: ['acme.example'], emails: ['contractor@partner.example'] }]);
    expect(loadConfig({ env: {} }).externalSources).toEqual([]);
  });

  it('refuses a misspelled key instead of ignoring it', () => {
    const file = tempFile(JSON.stringify({ guardrail: { destructiveMaxCount: 1 } }));
    expect(() => loadConfig({ configFile: file, env: {} })).toThrow(/guardrail/);
  });

  it('refuses a config file that is missing or not JSON', () => {
    expect(() => loadConfig({ configFile: '/nonexistent/seatflow.json', env: {} })).toThrow(/not found/);
    expect(() => loadConfig({ configFile: tempFile('{oops'), env: {} })).toThrow(/cannot read config file/);
  });
});

describe('parseRate', () => {
  it('reads N/SECONDS', () => {
    expect(parseRate('300/60')).toEqual({ requests: 300, perSeconds: 60 });
    expect(parseRate(' 10 / 1.5s ')).toEqual({ requests: 10, perSeconds: 1.5 });
  });

  it('refuses anything else with a hint', () => {
    expect(() => parseRate('fast')).toThrow(UsageError);
  });
});

describe('loadConfig: Redis sections', () => {
  it('takes a cluster or Sentinel section from the config file', () => {
    const file = tempFile(JSON.stringify({ redis: { cluster: { nodes: ['10.0.0.1:7000', '10.0.0.2:7000'], password: 'p' } } }));
    expect(loadConfig({ configFile: file, env: {} }).redis.cluster).toEqual({ nodes: ['10.0.0.1:7000', '10.0.0.2:7000'], password: 'p' });
    const sentinel = tempFile(JSON.stringify({ redis: { sentinel: { nodes: ['s1:26379'], name: 'mymaster' } } }));
    expect(loadConfig({ configFile: sentinel, env: {} }).redis.sentinel?.name).toBe('mymaster');
  });

  it('refuses a queue prefix with braces: seatflow adds its own hash tags', () => {
    expect(() => loadConfig({ env: { SEATFLOW_QUEUE_PREFIX: '{mine}' } })).toThrow(/queuePrefix: may not contain \{ or \}/);
  });
});
