// vfork-hold <ready-file>: writes its pid, then vfork()s a child that waits in pause(). Until that
// child exits or execs, the parent sleeps in the kernel uninterruptibly (killable): state D.
#include <stdio.h>
#include <unistd.h>
#include "ready-file.h"

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  char line[32];
  snprintf(line, sizeof line, "%d\n", (int)getpid());
  write_ready(argv[1], line);
  if (vfork() == 0) {
    for (;;) pause();
  }
  return 0;
}
