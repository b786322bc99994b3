import { hookSocketPath } from './hook-socket-path';
import { CLIENT_DEADLINE_S } from './hook-client-script';
import { join } from 'node:path';

/** `text` as a C string literal: every byte that is not a plain letter, digit or `/._-` as an octal escape. Pure. */
export function cString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9/._-]/.test(c) ? c : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/**
 * The hook client in C, for where a C compiler is (native-hook-client.ts builds it): the perl client's
 * rules exactly (hook-client-script.ts; the same checks, request, deadline and fallback), without
 * perl's start-up and compile, which were most of a tool call's cost. Plain POSIX (lstat, a Unix
 * stream socket, alarm, execl), so the same text builds on Linux and macOS. Pure: text in, text out.
 */
export function nativeHookClientSource(dataDir: string, oneShotPrefix: string): string {
  const defines = [
    `#define HOOKS_DIR ${cString(join(dataDir, 'hooks'))}`,
    `#define SOCKET_PATH ${cString(hookSocketPath(dataDir))}`,
    `#define ONE_SHOT ${cString(`exec ${oneShotPrefix} hook "$1" "$2"`)}`,
    `#define DEADLINE_S ${CLIENT_DEADLINE_S}`,
  ].join('\n');
  return `/* Corral's hook client, built by \`corral hooks install\` from this file: asks the running Corral on
 * its Unix socket, else runs the one-shot hook. Usage: corral-hook-native hook <agent> <event>, the
 * agent's JSON payload on stdin. See docs/hooks-service.md. */
${defines}
${CLIENT_BODY}`;
}

const CLIENT_BODY = String.raw`
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_ANSWER 4000000

static const char *agent = "";
static const char *event = "";

/* Nothing to ask: the one-shot hook takes this process over, the payload still unread on stdin. */
static void one_shot(void) {
  alarm(0);
  execl("/bin/sh", "sh", "-c", ONE_SHOT, "sh", agent, event, (char *)0);
  _exit(0);
}

static void on_alarm(int sig) {
  (void)sig;
  _exit(0);
}

static int all_of(const char *s, int (*ok)(int)) {
  if (*s == '\0') return 0;
  for (; *s; s++)
    if (!ok((unsigned char)*s)) return 0;
  return 1;
}

static int agent_char(int c) { return (c >= 'a' && c <= 'z') || c == '-'; }
static int event_char(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Where needle (lower case) starts in hay[0..len), ignoring case; -1 when it does not. */
static long find_ci(const char *hay, size_t len, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= len; i++) {
    size_t k = 0;
    while (k < n && lower((unsigned char)hay[i + k]) == needle[k]) k++;
    if (k == n) return (long)i;
  }
  return -1;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return 0;
    p += w;
    n -= (size_t)w;
  }
  return 1;
}

static char *read_stdin(size_t *len) {
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap);
  if (!buf) _exit(0);
  for (;;) {
    if (n == cap) {
      char *more = realloc(buf, cap *= 2);
      if (!more) _exit(0);
      buf = more;
    }
    ssize_t r = read(0, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += (size_t)r;
  }
  *len = n;
  return buf;
}

/* The body's length from the head (which ends with CRLF), or -1 when it gives none. */
static long content_length(const char *head, size_t len) {
  long at = find_ci(head, len, "\r\ncontent-length:");
  if (at < 0) return -1;
  size_t i = (size_t)at + 17;
  while (i < len && head[i] == ' ') i++;
  long value = -1;
  while (i < len && head[i] >= '0' && head[i] <= '9') {
    value = (value < 0 ? 0 : value) * 10 + (head[i] - '0');
    if (value > MAX_ANSWER) return -1;
    i++;
  }
  if (i < len && head[i] == '\r') i++;
  return i < len && head[i] == '\n' ? value : -1;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--check") == 0) {
    puts("corral-hook-native ok");
    return 0;
  }
  if (argc > 2) agent = argv[2];
  if (argc > 3) event = argv[3];
  if (argc < 4 || strcmp(argv[1], "hook") != 0 || !all_of(agent, agent_char) || !all_of(event, event_char))
    one_shot();
  /* Only the user's own Corral can listen here: a folder of its own that no one else may enter, its socket. */
  struct stat d, s;
  if (lstat(HOOKS_DIR, &d) != 0 || !S_ISDIR(d.st_mode) || d.st_uid != geteuid() || (d.st_mode & 077) != 0)
    one_shot();
  if (lstat(SOCKET_PATH, &s) != 0 || !S_ISSOCK(s.st_mode) || s.st_uid != geteuid()) one_shot();

  struct sigaction alarm_action;
  memset(&alarm_action, 0, sizeof alarm_action);
  alarm_action.sa_handler = on_alarm;
  sigaction(SIGALRM, &alarm_action, 0);
  signal(SIGPIPE, SIG_IGN);
  alarm(DEADLINE_S);

  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen(SOCKET_PATH) >= sizeof addr.sun_path) one_shot();
  strcpy(addr.sun_path, SOCKET_PATH);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    /* ENOENT, ECONNREFUSED: nothing listens (no service, or one that is gone). */
    if (errno == ENOENT || errno == ECONNREFUSED) {
      close(fd);
      one_shot();
    }
    return 0;
  }

  size_t payload_len;
  char *payload = read_stdin(&payload_len);
  char head[512];
  int head_len = snprintf(head, sizeof head,
                          "POST /hook/%s/%s HTTP/1.1\r\nHost: corral\r\nContent-Type: application/json\r\n"
                          "x-corral-client: %ld %ld\r\nContent-Length: %lu\r\nConnection: close\r\n\r\n",
                          agent, event, (long)getpid(), (long)getppid(), (unsigned long)payload_len);
  if (head_len <= 0 || (size_t)head_len >= sizeof head) return 0;
  if (!write_all(fd, head, (size_t)head_len) || !write_all(fd, payload, payload_len)) return 0;

  size_t cap = 65536, n = 0;
  char *res = malloc(cap + 2);
  if (!res) return 0;
  long end = -1, want = -1;
  for (;;) {
    if (n == cap) {
      if (cap > MAX_ANSWER) return 0;
      char *more = realloc(res, (cap *= 2) + 2);
      if (!more) return 0;
      res = more;
    }
    ssize_t r = read(fd, res + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += (size_t)r;
    if (n > MAX_ANSWER) return 0;
    if (end < 0) {
      for (size_t i = 0; i + 4 <= n; i++)
        if (memcmp(res + i, "\r\n\r\n", 4) == 0) {
          end = (long)i;
          break;
        }
      if (end < 0) continue;
      want = content_length(res, (size_t)end + 2);
    }
    if (want >= 0 && n >= (size_t)end + 4 + (size_t)want) break;
  }
  alarm(0);
  if (end < 0) return 0;
  /* The head with its last line's CRLF, as the perl client matches it. */
  size_t head_end = (size_t)end + 2;
  static const char ok[] = "HTTP/1.1 200 OK\r\n";
  if (head_end < sizeof ok - 1 || memcmp(res, ok, sizeof ok - 1) != 0) return 0;
  if (find_ci(res, head_end, "\r\nx-corral-hook: 1\r\n") < 0) return 0;
  size_t body = (size_t)end + 4;
  if (n > body) {
    if (!write_all(1, res + body, n - body) || !write_all(1, "\n", 1)) return 0;
  }
  return 0;
}
`;
