import { describe, expect, it } from 'vitest';
import { createDiscussionJob } from '../../../jobs/create-discussion.js';
import { discussionMarker, withoutMarkers } from '../../../jobs/discussion-marker.js';
import { useCheckedFiles } from '../../helpers/checked-files.js';
import { SHEET, contextFor, createDemoFake } from './job-fixtures.js';

const TEXT = 'Laptops of leavers go back to IT by Friday.';
const row = { action: 'create-discussion', sheetId: SHEET, comment: TEXT } as const;
const discussionsOf = (fake: ReturnType<typeof createDemoFake>) => fake.state.sheets.get(SHEET)!.discussions;

describe('discussionMarker', () => {
  it('is the same for every attempt of a row and differs for other rows and batches', () => {
    expect(discussionMarker('b1', 7)).toBe(discussionMarker('b1', 7));
    expect(discussionMarker('b1', 7)).not.toBe(discussionMarker('b1', 8));
    expect(discussionMarker('b1', 7)).not.toBe(discussionMarker('b2', 7));
  });

  it('is made of invisible characters only', () => {
    const marker = discussionMarker('b1', 7);
    expect(marker).toHaveLength(33);
    expect([...marker].every((char) => ['\u2063', '\u200B', '\u200C', '\u200D', '\u2060'].includes(char))).toBe(true);
  });

  it('comes off again, leaving the text as written', () => {
    expect(withoutMarkers(`${TEXT}${discussionMarker('b1', 7)}`)).toBe(TEXT);
  });
});

describe('createDiscussionJob', () => {
  const files = useCheckedFiles();
  it('posts the comment with the row marker and reports the discussion id', async () => {
    const fake = createDemoFake();
    const result = await createDiscussionJob.run(contextFor(fake.api, row, { sheetId: SHEET }, { batchId: 'b1', row: 7 }));
    const [created] = discussionsOf(fake);
    expect(result.detail).toEqual({ sheetId: SHEET, discussionId: created?.id });
    expect(created?.comments?.[0]?.text).toBe(TEXT + discussionMarker('b1', 7));
  });

  it('never posts twice on a retry whose first attempt went through', async () => {
    const fake = createDemoFake();
    await createDiscussionJob.run(contextFor(fake.api, row, {}, { batchId: 'b1', row: 7 }));
    const retry = contextFor(fake.api, row, {}, { batchId: 'b1', row: 7, previousAttemptUncertain: true });
    expect(await createDiscussionJob.confirm(retry)).toBe('done');
    expect(discussionsOf(fake)).toHaveLength(1);
  });

  it('does not take an older discussion with the same words for its own', async () => {
    const fake = createDemoFake();
    await fake.api.discussions.create(SHEET, { comment: { text: TEXT } });
    expect(await createDiscussionJob.confirm(contextFor(fake.api, row, {}, { batchId: 'b1', row: 7 }))).toBe('not-done');
  });

  it("does not take another row's discussion with the same words for its own", async () => {
    const fake = createDemoFake();
    await createDiscussionJob.run(contextFor(fake.api, row, {}, { batchId: 'b1', row: 6 }));
    await createDiscussionJob.run(contextFor(fake.api, row, {}, { batchId: 'b0', row: 7 }));
    expect(await createDiscussionJob.confirm(contextFor(fake.api, row, {}, { batchId: 'b1', row: 7 }))).toBe('not-done');
  });

  it('uploads the checked file with the discussion when the row names one', async () => {
    const fake = createDemoFake();
    const upload = await files.file('return-form.txt', 'Return your laptop.\n');
    await createDiscussionJob.run(contextFor(fake.api, { ...row, file: 'return-form.txt' }, { upload }));
    expect(fake.writes()).toEqual(['discussions.createWithAttachment']);
  });
});
