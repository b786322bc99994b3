// no-argv <program>: executes <program> with an empty argv ({ NULL }), as only a hostile or careless
// program would. Linux (5.18+) then gives it a single empty argument.
#include <stdio.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  char *empty[] = {NULL};
  execve(argv[1], empty, environ);
  perror("execve");
  return 1;
}
