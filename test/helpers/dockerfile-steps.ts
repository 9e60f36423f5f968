import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './run-seatflow.js';

/** One instruction of a Dockerfile stage, continuation lines joined. */
export interface Instruction {
  keyword: string;
  /** The rest of the line: arguments, with `--flag=value` options of COPY and RUN left at its start. */
  args: string;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages (`FROM image AS name`) and their instructions, comments and blank lines dropped. */
export function readDockerfile(file = path.join(ROOT, 'Dockerfile')): Stage[] {
  const logical = readFileSync(file, 'utf8')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword, ...rest] = line.split(/\s+/);
    const args = line.slice(keyword!.length).trim();
    if (keyword === 'FROM') {
      const [image, as, name] = rest;
      stages.push({ name: as?.toUpperCase() === 'AS' && name !== undefined ? name : String(stages.length), from: image!, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (stage === undefined) throw new Error(`${keyword} before FROM`);
      stage.instructions.push({ keyword: keyword!.toUpperCase(), args });
    }
  }
  return stages;
}

/** `--mount=…`, `--from=…` options at the start of RUN and COPY arguments, and what follows them. */
export function splitOptions(args: string): { options: Record<string, string>; rest: string } {
  const options: Record<string, string> = {};
  let rest = args;
  for (let match = /^--([\w-]+)=(\S+)\s+/.exec(rest); match !== null; match = /^--([\w-]+)=(\S+)\s+/.exec(rest)) {
    options[match[1]!] = match[2]!;
    rest = rest.slice(match[0].length);
  }
  return { options, rest };
}
