/*
 * The floor for a full process-table snapshot: list /proc, and for every pid open, read and close
 * /proc/<pid>/stat and parse the fields Corral uses (ppid, pgrp, session, utime, stime, starttime,
 * rss). Usage: fullscan <iterations>. Prints one line per iteration: "<cpu_us> <wall_us> <processes>",
 * where cpu is this process's user + system time for that iteration (getrusage), so process start-up
 * is not counted.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct proc_fields {
  long pid, ppid, pgrp, session, utime, stime, rss;
  unsigned long long start;
};

static long long cpu_us(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

static long long wall_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* Fields after the last ')' (the name may hold spaces and parentheses); numbering as in proc(5). */
static int parse_stat(const char *buf, struct proc_fields *f) {
  const char *close = strrchr(buf, ')');
  if (!close) return 0;
  const char *p = close + 2;
  int field = 3;
  while (*p && field <= 24) {
    long long v = strtoll(p, NULL, 10);
    switch (field) {
      case 4: f->ppid = (long)v; break;
      case 5: f->pgrp = (long)v; break;
      case 6: f->session = (long)v; break;
      case 14: f->utime = (long)v; break;
      case 15: f->stime = (long)v; break;
      case 22: f->start = (unsigned long long)v; break;
      case 24: f->rss = (long)v; break;
    }
    p = strchr(p, ' ');
    if (!p) break;
    p++;
    field++;
  }
  return field >= 24;
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 1;
  static char path[300];
  static char buf[4096];
  volatile long sink = 0;
  for (int it = 0; it < iterations; it++) {
    long long c0 = cpu_us(), w0 = wall_us();
    int count = 0;
    DIR *dir = opendir("/proc");
    if (!dir) return 1;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
      if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
      snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
      int fd = open(path, O_RDONLY);
      if (fd < 0) continue;
      ssize_t n = read(fd, buf, sizeof buf - 1);
      close(fd);
      if (n <= 0) continue;
      buf[n] = 0;
      struct proc_fields f;
      if (parse_stat(buf, &f)) {
        sink += f.pgrp + f.session;
        count++;
      }
    }
    closedir(dir);
    printf("%lld %lld %d\n", cpu_us() - c0, wall_us() - w0, count);
  }
  return sink == -1;
}
