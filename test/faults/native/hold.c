// A process that does nothing until it is killed, whatever its argv.
// HOLD_COMM_HEX=<hex bytes>: sets its name (comm) to those raw bytes with prctl(PR_SET_NAME), so a test
// can give it names no file can have ('/'). HOLD_READY=<file>: writes "<pid>\n" there once named.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "ready-file.h"

int main(void) {
  const char *hex = getenv("HOLD_COMM_HEX");
  if (hex) {
    char name[16] = {0};
    size_t n = strlen(hex) / 2;
    if (n > 15) n = 15;
    for (size_t i = 0; i < n; i++) {
      unsigned byte = 0;
      sscanf(hex + 2 * i, "%2x", &byte);
      name[i] = (char)byte;
    }
    prctl(PR_SET_NAME, name, 0, 0, 0);
  }
  char line[32];
  snprintf(line, sizeof line, "%d\n", (int)getpid());
  write_ready(getenv("HOLD_READY"), line);
  for (;;) pause();
}
