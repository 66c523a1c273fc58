#!/usr/bin/env node
import { EchoError } from '../errors/echo-error.js';
import { parseArguments } from './parse-arguments.js';
import { runChat } from '../cli/run-chat.js';
import { runStart } from '../cli/run-start.js';

const usage = `Usage: echo-agent <command> [--config FILE]
  start     run every configured channel (npm start)
  chat      talk to the agent in this terminal (npm run chat)
  tools     print the resolved tool set (npm run tools -- --profile NAME --channel NAME)
  audit     print recent audit entries (npm run audit)
  usage     print model calls, tokens and cost today and this month, per chat, user, job, model and origin (npm run usage; --day, --month)
  parked    list turns set aside after repeated interruptions; show, retry or drop one (npm run parked -- retry <id>)
  memory    export or delete what memory holds about a person (npm run memory -- --export <channel>:<userId> [--out FILE] | --delete <channel>:<userId>)
  cron      list scheduled jobs, next run and last status (npm run cron -- list)
  hooks     list named hooks and their last deliveries: received, verified, matched, run, delivered (npm run hooks)
  doctor    check config, data folder, store, model, channels and tools, one line each (npm run doctor; --json)
  config-docs  write docs/configuration.md from the schema (npm run docs:config; --check to verify)
  eval-memory  play multi-session conversations with memory on and off, score the answers with the model (npm run eval:memory; --longmemeval FILE, --limit N)
  eval-reviewer  run labelled calls through the approval reviewer and print a confusion table (npm run eval:reviewer)`;

async function main(): Promise<number> {
  const parsed = parseArguments(process.argv.slice(2));
  switch (parsed.command) {
    case 'start':
      return runStart(parsed);
    case 'chat':
      return runChat(parsed);
    case 'tools':
      return (await import('../cli/run-tools.js')).runTools(parsed);
    case 'audit':
      return (await import('../cli/run-audit.js')).runAudit(parsed);
    case 'usage':
      return (await import('../cli/run-usage.js')).runUsage(parsed);
    case 'parked':
      return (await import('../cli/run-parked.js')).runParked(parsed);
    case 'memory':
      return (await import('../cli/run-memory.js')).runMemory(parsed);
    case 'cron':
      return (await import('../cli/run-cron.js')).runCron(parsed);
    case 'hooks':
      return (await import('../cli/run-hooks.js')).runHooks(parsed);
    case 'doctor':
      return (await import('./run-doctor.js')).runDoctor(parsed);
    case 'config-docs':
      return (await import('./run-config-docs.js')).runConfigDocs(parsed);
    case 'eval-memory':
      return (await import('../cli/run-memory-evaluation.js')).runMemoryEvaluation(parsed);
    case 'eval-reviewer':
      return (await import('../cli/run-reviewer-evaluation.js')).runReviewerEvaluation(parsed);
    case 'help':
      process.stdout.write(`${usage}\n`);
      return 0;
    default:
      process.stderr.write(`Unknown command "${parsed.command}".\n${usage}\n`);
      return 2;
  }
}

/** Sets the exit code; if a client still holds the event loop (a Redis client retrying), exit anyway shortly after. */
function finish(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 3000).unref();
}

main().then(finish, (error: unknown) => {
  // Never a stack trace for the person at the terminal: one sentence, and the code for bug reports.
  const message = error instanceof EchoError ? `${error.message} [${error.code}]` : error instanceof Error ? error.message : String(error);
  process.stderr.write(`echo-agent stopped: ${message}\n`);
  finish(1);
});
