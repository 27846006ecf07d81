#!/bin/sh
# help2man include file for a tool with subcommands: one section per subcommand with its --help,
# verbatim. Usage: subcommands.sh TOOL SUBCOMMAND...
tool=$1; shift
for sub in "$@"; do
  printf '[SUBCOMMAND %s]\n' "$sub"
  printf '.nf\n'
  # roff: a backslash is \e, and a line may not start with . or '
  "$tool" "$sub" --help 2>&1 | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
  printf '.fi\n\n'
done
