export const MEGABYTE = 1024 * 1024;

/** Largest upload the service takes: profile images 1 MB (wire.md §4 U10), discussion attachments 30 MB (wire.md §6). */
export const UPLOAD_LIMITS = { profileImage: MEGABYTE, attachment: 30 * MEGABYTE } as const;
