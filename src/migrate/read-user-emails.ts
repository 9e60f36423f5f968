import { emailSchema } from '../manifest/action.js';
import { readListFile } from './read-list-file.js';

/** The users of a domain migration (`--users FILE`): one current address a line, or a CSV with an email column. */
export async function readUserEmails(file: string, content?: Buffer): Promise<string[]> {
  const list = await readListFile({
    path: file,
    ...(content === undefined ? {} : { content }),
    noun: 'users',
    columns: ['email', 'e-mail', 'emailaddress', 'mail', 'primaryemail'],
    check(value) {
      const parsed = emailSchema.safeParse(value);
      return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: 'is not an e-mail address' };
    },
  });
  return list.values.map((entry) => entry.value);
}
