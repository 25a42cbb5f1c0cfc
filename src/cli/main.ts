/** Runs a command's `run(argv, out)` when its module is the script node was started with, exiting with its code. */
export function runWhenMain(moduleUrl: string, run: (argv: string[], out: (line: string) => void) => Promise<number>): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  run(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
