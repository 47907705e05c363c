// The commands that read evidence inputs, named once: the entry starts a parse worker early for them, and only their
// specs may declare the evidence flags (CommandSpec's `inputs` is typed by this list).

export const INPUT_COMMANDS = ['parse', 'check', 'baseline', 'snapshot', 'history append'] as const;
export type InputCommand = (typeof INPUT_COMMANDS)[number];

/** Whether a command line (without the program) runs a command that reads inputs, and is not a request for help. */
export function readsInputs(args: readonly string[]): boolean {
  if (args.includes('--help') || args.includes('-h')) return false;
  const command = args[0] === 'history' ? `history ${args[1] ?? ''}` : args[0];
  return (INPUT_COMMANDS as readonly (string | undefined)[]).includes(command);
}

/** The command line's words after the command's name (`history append` has two). */
export function afterCommand(args: readonly string[]): readonly string[] {
  return args.slice(args[0] === 'history' ? 2 : 1);
}
