import { parentPort } from 'node:worker_threads';
import { answerOf, describeFailure, runParseTask, type ParseTask } from './parse-task.js';

/** The worker thread's side: one task per message, answered with its result or its failure, under the same id. */
parentPort?.on('message', (message: { id: number; task: ParseTask }) => {
  runParseTask(message.task).then(
    (result) => parentPort?.postMessage({ id: message.id, answer: answerOf(result) }),
    (error: unknown) => parentPort?.postMessage({ id: message.id, failure: describeFailure(error) }),
  );
});
