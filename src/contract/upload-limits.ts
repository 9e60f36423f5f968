export const MEGABYTE = 1024 * 1024;

/** Largest upload the service takes: profile images 1 MB, discussion attachments 30 MB (docs/service.md#uploads). */
export const UPLOAD_LIMITS = { profileImage: MEGABYTE, attachment: 30 * MEGABYTE } as const;
