import type { LifecycleFactory } from '../workflow/workflow-engine.js';
import { createDomainLifecycle } from './domain-lifecycle.js';

/**
 * The lifecycles of `seatflow migrate`: every process that takes steps runs them on its engine (a target's steps share
 * one queue), as it runs the sync's joiners and movers.
 */
export const MIGRATION_LIFECYCLES: readonly LifecycleFactory[] = [createDomainLifecycle];
