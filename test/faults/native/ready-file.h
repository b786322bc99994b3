// Writes a ready file atomically (write a temporary, then rename), so a reader never sees half of it.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void write_ready(const char *path, const char *text) {
  if (!path) return;
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  size_t left = strlen(text);
  while (left > 0) {
    ssize_t n = write(fd, text, left);
    if (n <= 0) break;
    text += n;
    left -= (size_t)n;
  }
  close(fd);
  rename(tmp, path);
}
