/**
 * A submission Redis could not confirm (`unconfirmed`: refused as not acknowledged, or Redis lost under it) may still
 * be kept and run: `say` tells the operator what, before the error goes on to its exit code (3; running it again is
 * safe and finds what was kept).
 */
export async function sayIfUnconfirmed<T>(submit: () => Promise<T>, unconfirmed: abstract new (...args: never[]) => Error, say: () => Promise<void> | void): Promise<T> {
  try {
    return await submit();
  } catch (error) {
    if (error instanceof unconfirmed) await say();
    throw error;
  }
}
