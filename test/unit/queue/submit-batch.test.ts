import { describe, expect, it } from 'vitest';
import { batchIdOf, queueNameOf } from '../../../src/queue/submit-batch.js';
import { rowJobId } from '../../../src/queue/row-job.js';

describe('batchIdOf', () => {
  it('gives the same id for the same manifest, target and options', () => {
    expect(batchIdOf('abc', 'https://api.smartsheet.com/2.0', { skipInvalid: true })).toBe(batchIdOf('abc', 'https://api.smartsheet.com/2.0', { skipInvalid: true }));
  });
  it('gives another id when the content, the target or an option differs', () => {
    const id = batchIdOf('abc', 'T', {});
    expect(batchIdOf('abd', 'T', {})).not.toBe(id);
    expect(batchIdOf('abc', 'U', {})).not.toBe(id);
    expect(batchIdOf('abc', 'T', { action: 'deactivate' })).not.toBe(id);
  });
  it('ignores unset and false options', () => {
    expect(batchIdOf('abc', 'T', { skipInvalid: false, action: undefined })).toBe(batchIdOf('abc', 'T', {}));
  });
});

describe('rowJobId', () => {
  it('is <batch>-<row>', () => {
    expect(rowJobId('b123', 7)).toBe('b123-7');
  });
});

describe('queueNameOf', () => {
  it('names one queue per target', () => {
    expect(queueNameOf('A')).toBe(queueNameOf('A'));
    expect(queueNameOf('A')).not.toBe(queueNameOf('B'));
  });
});
