// fan-out <n> <ready-file> [own-groups]: forks n children that wait in pause() until killed, then
// writes their pids (one per line) to the ready file and waits too. With own-groups every child
// leads a process group of its own (setpgid by both sides, so the group exists before the parent
// reports it). On a failed fork the first line is "error: fork failed after <k>: <reason>".
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ready-file.h"

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  int n = atoi(argv[1]);
  int own = argc > 3 && strcmp(argv[3], "own-groups") == 0;
  char *out = malloc((size_t)n * 12 + 64);
  size_t used = 0;
  out[0] = 0;
  for (int i = 0; i < n; i++) {
    pid_t pid = fork();
    if (pid < 0) {
      // The children made so far are listed too: the test must remove their groups.
      char msg[128];
      snprintf(msg, sizeof msg, "error: fork failed after %d: %s\n", i, strerror(errno));
      char *all = malloc(strlen(msg) + used + 1);
      sprintf(all, "%s%s", msg, out);
      write_ready(argv[2], all);
      for (;;) pause();
    }
    if (pid == 0) {
      if (own) setpgid(0, 0);
      for (;;) pause();
    }
    if (own) setpgid(pid, pid);
    used += (size_t)sprintf(out + used, "%d\n", (int)pid);
  }
  write_ready(argv[2], n > 0 ? out : "\n");
  for (;;) pause();
}
