import { CompactStringSet } from '../manifest/compact-string-set.js';
import { grownTo } from '../manifest/packed-strings.js';
import type { LiveMember } from './live-member.js';

/** What a sync looks the live organization up by: a Map of members by lower-case e-mail, or a LiveIndex. */
export type LiveLookup = Pick<ReadonlyMap<string, LiveMember>, 'get' | 'values' | 'size'>;

/**
 * The live organization as a sync compares with it, by lower-case e-mail, kept off the heap: the e-mails in a
 * CompactStringSet, each member's id in a Float64Array and its status, admin flag and seat as one-byte codes. About 60
 * bytes a user, where a Map of objects took about 300 of heap; a member read back is a new object. Iterated in the
 * order members were first set (the listing's), as a Map is; setting an e-mail again replaces its member.
 */
export class LiveIndex implements LiveLookup {
  private readonly emails = new CompactStringSet();
  private ids = new Float64Array(1024);
  /** Per member: its status, admin flag and seat, each as its position in `codes` (0: absent). */
  private facts = new Uint8Array(3 * 1024);
  /** The values the codes stand for, in order of first use; 0 is undefined. Few: statuses, true/false, seat types. */
  private readonly codes: unknown[] = [undefined];

  get size(): number {
    return this.emails.size;
  }

  set(member: LiveMember): this {
    let index = this.emails.indexOf(member.email);
    if (index === -1) {
      this.emails.add(member.email);
      index = this.emails.size - 1;
      if (index >= this.ids.length) {
        this.ids = grownTo(this.ids, new Float64Array(this.ids.length * 2));
        this.facts = grownTo(this.facts, new Uint8Array(this.facts.length * 2));
      }
    }
    this.ids[index] = member.id;
    this.facts[3 * index] = this.codeOf(member.status);
    this.facts[3 * index + 1] = this.codeOf(member.admin);
    this.facts[3 * index + 2] = this.codeOf(member.seat);
    return this;
  }

  get(email: string): LiveMember | undefined {
    const index = this.emails.indexOf(email);
    return index === -1 ? undefined : this.memberAt(index, email);
  }

  *values(): MapIterator<LiveMember> {
    for (let i = 0; i < this.size; i += 1) yield this.memberAt(i, this.emails.at(i));
  }

  private memberAt(index: number, email: string): LiveMember {
    const [status, admin, seat] = [0, 1, 2].map((field) => this.codes[this.facts[3 * index + field]!]);
    return {
      id: this.ids[index]!,
      email,
      ...(status === undefined ? {} : { status: status as LiveMember['status'] }),
      ...(admin === undefined ? {} : { admin: admin as boolean }),
      ...(seat === undefined ? {} : { seat: seat as LiveMember['seat'] }),
    };
  }

  private codeOf(value: unknown): number {
    let code = this.codes.indexOf(value);
    if (code === -1) {
      // A status or seat type the service added since is kept as it came; 255 distinct values are far more than exist.
      if (this.codes.length > 255) throw new Error('more than 255 distinct statuses, admin flags and seats');
      code = this.codes.push(value) - 1;
    }
    return code;
  }
}
