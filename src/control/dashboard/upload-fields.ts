import path from 'node:path';

/** A field of a multipart form as @fastify/multipart attaches it to the body. */
interface MultipartField {
  type?: string;
  value?: unknown;
  filename?: string;
  toBuffer?: () => Promise<Buffer>;
}

/** A form field as a string, whether the form came url-encoded (a string) or as multipart (a field object). */
export function fieldValue(field: unknown): string | undefined {
  if (typeof field === 'string') return field;
  if (typeof field === 'object' && field !== null && 'value' in field) return String((field as { value: unknown }).value);
  return undefined;
}

/** The file of a multipart form's field: its bytes (empty when none was chosen) and its name, without any folder. */
export async function uploadedFile(body: unknown, field: string, fallbackName: string): Promise<{ bytes: Buffer; name: string }> {
  const file = (body as Record<string, MultipartField | undefined> | undefined)?.[field];
  const bytes = file?.type === 'file' && file.toBuffer !== undefined ? await file.toBuffer() : Buffer.alloc(0);
  return { bytes, name: path.basename(file?.filename ?? fallbackName) || fallbackName };
}
