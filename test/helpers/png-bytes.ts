/** The PNG signature and the start of an IHDR chunk: enough for file-type to say image/png. */
export const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
