#!/usr/bin/env node
import { runCli } from './main.ts';

runCli(process.argv.slice(2), process).then((code) => {
  if (code !== 0) process.exitCode = code;
});
