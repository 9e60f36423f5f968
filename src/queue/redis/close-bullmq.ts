/** A BullMQ Queue, Worker or QueueEvents: anything that opens its own Redis connections. */
export interface BullmqResource {
  waitUntilReady(): Promise<unknown>;
  close(force?: boolean): Promise<void>;
}

export interface CloseBullmqOptions {
  /** How long a Worker may finish its active jobs before it is closed by force (jobs go back to the queue). */
  graceMs?: number;
  /** How long to wait for a connection still starting (an unreachable Redis never gets ready). Default 5 s. */
  readyMs?: number;
  /** Called when the grace ran out and the resource is closed by force. */
  onForced?: () => void;
}

/**
 * The one way seatflow closes a BullMQ resource. BullMQ checks the Redis version (INFO) as a connection starts; a
 * resource closed in that moment has its INFO answered by a closed socket, and the failure is emitted as `error` on a
 * connection whose listeners the close already removed: an uncaught `Connection is closed` that ends the process
 * after its work was done (upstream taskforcesh/bullmq#3546). It happens to every command that starts workers and
 * finds nothing left to do (another process's `seatflow worker` took it first), and to a serve whose port is taken.
 * So: wait until the resource's connections are ready (bounded: an unreachable Redis has no command in flight to
 * fail), then close, gracefully within `graceMs`, then by force.
 */
export async function closeBullmq(resource: BullmqResource, options: CloseBullmqOptions = {}): Promise<void> {
  await within(resource.waitUntilReady().catch(() => undefined), options.readyMs ?? 5000);
  if (options.graceMs === undefined) {
    await resource.close();
    return;
  }
  if (!(await within(resource.close().then(() => true), options.graceMs))) {
    options.onForced?.();
    await resource.close(true);
  }
}

/** The promise's value, or undefined when it takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
