#!/usr/bin/env node
import { runCli } from './main.ts';

// Output piped into a reader that has gone (`| head -1`, a closed terminal): the rest is dropped,
// and the command goes on to its end. A capture, refund or void the gateway has made is still
// recorded for the shop; an unhandled EPIPE would end the process between the two.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

runCli(process.argv.slice(2), process).then((code) => {
  if (code !== 0) process.exitCode = code;
});
