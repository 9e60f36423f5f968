import type { LifecycleFactory } from '../workflow/workflow-engine.js';
import { createJoinerLifecycle } from './joiner-lifecycle.js';
import { createMoverLifecycle } from './mover-lifecycle.js';

/**
 * The lifecycles `seatflow sync` submits besides offboarding: every process that takes steps (`seatflow worker`,
 * `serve --workers`, the commands that run workers in-process) runs them on its engine, since a target's steps share
 * one queue.
 */
export const HR_LIFECYCLES: readonly LifecycleFactory[] = [createJoinerLifecycle, createMoverLifecycle];
