/*
 * The kernel's floor for removing a large process group: a group of N `sleep` processes is made, then
 * kill(-pgid, SIGKILL) is sent and the time until no process holds the PGID any more (all reaped) is
 * printed, one line per round, in milliseconds. Corral's TERM-ignoring teardown pays this after its
 * grace period. Usage: killfloor <processes> <rounds>
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Each member writes one byte to the ready pipe, whose write end closes on exec. */
static void become_sleep(int ready) {
  char b = 1;
  if (write(ready, &b, 1) != 1) _exit(1);
  execl("/bin/sleep", "sleep", "3600", (char *)0);
  _exit(1);
}

int main(int argc, char **argv) {
  int size = argc > 1 ? atoi(argv[1]) : 1000;
  int rounds = argc > 2 ? atoi(argv[2]) : 5;
  for (int round = 0; round < rounds; round++) {
    int ready[2];
    if (pipe(ready) != 0) return 1;
    fcntl(ready[1], F_SETFD, FD_CLOEXEC);
    pid_t leader = fork();
    if (leader < 0) return 1;
    if (leader == 0) {
      setpgid(0, 0);
      close(ready[0]);
      for (int i = 1; i < size; i++)
        if (fork() == 0) become_sleep(ready[1]);
      become_sleep(ready[1]);
    }
    setpgid(leader, leader);
    close(ready[1]);
    char buf[4096];
    int seen = 0;
    while (seen < size) {
      ssize_t n = read(ready[0], buf, sizeof buf);
      if (n <= 0) break;
      seen += (int)n;
    }
    close(ready[0]);
    if (seen < size) {
      kill(-leader, SIGKILL);
      fprintf(stderr, "only %d of %d members started\n", seen, size);
      return 1;
    }
    double t0 = now_ms();
    kill(-leader, SIGKILL);
    waitpid(leader, NULL, 0); /* the leader is ours to reap; init reaps the rest */
    while (kill(-leader, 0) == 0 || errno != ESRCH) {
      struct timespec pause = {0, 1000000};
      nanosleep(&pause, NULL);
    }
    printf("%.3f\n", now_ms() - t0);
    fflush(stdout);
  }
  return 0;
}
