/* SPDX-License-Identifier: MIT */
/* bench_lsp.c - how long an editor waits for diagnostics after an edit:
 * `segc lsp` against running `segc check` afresh.
 *
 *   bench_lsp SEGC SPEC EDITS
 *
 * Starts one `SEGC lsp`, opens SPEC (a file: URI, so `extends:` files are
 * read from the disk, as in an editor), then EDITS times: changes one
 * value (the last character of the board's name, flipped between 'a' and
 * 'b': an incremental didChange of one character) and waits for the
 * publishDiagnostics of that version; then writes the same text to SPEC
 * and runs `SEGC check SPEC` as a new process (start-up included, as a
 * user at a shell or a save hook would), the edits and the checks
 * interleaved so that a drift of the machine's load hits both alike.  One
 * untimed round first.  Prints one line: the board, the mean milliseconds
 * of each, their ratio (server / check) and whether both found errors.
 *
 * A C driver, not Python: a Python client's own JSON encoding, decoding
 * and pipe handling would take about as long as the server's work on a
 * small spec, and it would be counted on the server's side only.  Here the
 * client's work per edit is a memcpy, one small write and a substring
 * search in the reply.  `check` is started with posix_spawn, the cheapest
 * way to start it (a shell's fork and exec cost more), so the baseline is,
 * if anything, flattered.  Writes SPEC (a copy made by bench/lsp.sh). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void die(const char *what)
{
    fprintf(stderr, "bench_lsp: %s: %s\n", what, errno ? strerror(errno) : "failed");
    exit(2);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ---- a growable string ----------------------------------------------------- */

typedef struct {
    char *p;
    size_t len, cap;
} Str;

static void put(Str *s, const char *p, size_t n)
{
    if (s->len + n + 1 > s->cap) {
        s->cap = (s->len + n + 1) * 2;
        if (!(s->p = realloc(s->p, s->cap)))
            die("realloc");
    }
    memcpy(s->p + s->len, p, n);
    s->len += n;
    s->p[s->len] = 0;
}

static void puts_(Str *s, const char *p)
{
    put(s, p, strlen(p));
}

/* `p` as a JSON string's contents. */
static void put_json(Str *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        char e[8];
        if (c == '"' || c == '\\')
            e[0] = '\\', e[1] = (char)c, put(s, e, 2);
        else if (c == '\n')
            puts_(s, "\\n");
        else if (c < 0x20)
            snprintf(e, sizeof e, "\\u%04x", c), puts_(s, e);
        else
            put(s, (const char *)&c, 1);
    }
}

/* ---- the server ---------------------------------------------------------------- */

static int to_srv, from_srv;
static char rbuf[1 << 16];
static size_t rpos, rlen;

static void send_msg(const Str *body)
{
    char head[64];
    int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", body->len);
    Str all = {0};
    put(&all, head, (size_t)h);
    put(&all, body->p, body->len);
    for (size_t off = 0; off < all.len;) {
        ssize_t n = write(to_srv, all.p + off, all.len - off);
        if (n < 0 && errno != EINTR)
            die("write to segc lsp");
        off += n > 0 ? (size_t)n : 0;
    }
    free(all.p);
}

static int get_byte(void)
{
    if (rpos == rlen) {
        ssize_t n;
        while ((n = read(from_srv, rbuf, sizeof rbuf)) < 0 && errno == EINTR)
            ;
        if (n <= 0) {
            errno = 0;
            die("segc lsp closed its output");
        }
        rpos = 0, rlen = (size_t)n;
    }
    return (unsigned char)rbuf[rpos++];
}

/* One message body from the server into *body. */
static void recv_msg(Str *body)
{
    size_t len = 0;
    bool have = false;
    for (;;) {
        char line[256];
        size_t n = 0;
        int c;
        while ((c = get_byte()) != '\n')
            if (n + 1 < sizeof line)
                line[n++] = (char)c;
        if (n && line[n - 1] == '\r')
            n--;
        line[n] = 0;
        if (!n) {
            if (have)
                break;
            continue;
        }
        if (!strncmp(line, "Content-Length:", 15))
            len = strtoull(line + 15, NULL, 10), have = true;
    }
    body->len = 0;
    for (size_t i = 0; i < len; i++) {
        char c = (char)get_byte();
        put(body, &c, 1);
    }
    if (!body->p)
        put(body, "", 0);
}

/* Waits for the diagnostics of document version `version`; true if they
 * hold an error. */
static bool wait_diagnostics(long version, Str *body)
{
    char want[64];
    snprintf(want, sizeof want, "\"version\":%ld,", version);
    for (;;) {
        recv_msg(body);
        if (strstr(body->p, "\"method\":\"textDocument/publishDiagnostics\"") && strstr(body->p, want))
            return strstr(body->p, "\"severity\":1") != NULL;
    }
}

static void start_server(const char *segc)
{
    int in[2], out[2];
    if (pipe(in) || pipe(out))
        die("pipe");
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(in[0], 0), dup2(out[1], 1), dup2(null, 2);
        close(in[1]), close(out[0]);
        execl(segc, segc, "lsp", (char *)NULL);
        _exit(127);
    }
    close(in[0]), close(out[1]);
    to_srv = in[1], from_srv = out[0];
}

/* ---- segc check ------------------------------------------------------------------ */

/* Runs `segc check spec`, its output to /dev/null; its exit status. */
static int run_check(const char *segc, const char *spec)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)segc, "check", (char *)spec, NULL};
    pid_t pid;
    int st;
    if ((errno = posix_spawn(&pid, segc, &fa, NULL, argv, environ)) != 0)
        die("posix_spawn segc check");
    posix_spawn_file_actions_destroy(&fa);
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            die("waitpid");
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void write_file(const char *path, const char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f))
        die(path);
}

/* ---- the edit ----------------------------------------------------------------------- */

/* The board's name: the first `name:` at or after the `board:` line, not
 * in a comment.  Sets the 0-based line and column of its last character. */
static size_t find_edit(const char *text, unsigned *line, unsigned *col)
{
    const char *b = !strncmp(text, "board:", 6) ? text : strstr(text, "\nboard:");
    if (!b)
        return (size_t)-1;
    for (const char *l = b + (*b == '\n'); *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        const char *t = l + strspn(l, " \t"), *eol = strchr(l, '\n');
        const char *k = strstr(t, "name:");
        if (*t == '#' || !k || (eol && k > eol))
            continue;
        const char *v = k + 5 + strspn(k + 5, " \t"), *e = v;
        while ((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9') || *e == '_')
            e++;
        if (e == v)
            return (size_t)-1;
        *line = 0;
        for (const char *s = text; s < l; s++)
            *line += *s == '\n';
        *col = (unsigned)(e - 1 - l);
        return (size_t)(e - 1 - text);
    }
    return (size_t)-1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: bench_lsp SEGC SPEC EDITS\n");
        return 2;
    }
    const char *segc = argv[1], *spec = argv[2];
    int edits = atoi(argv[3]);
    signal(SIGPIPE, SIG_IGN);

    Str text = {0};
    FILE *f = fopen(spec, "rb");
    if (!f)
        die(spec);
    char chunk[8192];
    for (size_t n; (n = fread(chunk, 1, sizeof chunk, f));)
        put(&text, chunk, n);
    fclose(f);
    unsigned line, col;
    size_t at = find_edit(text.p, &line, &col);
    if (at == (size_t)-1) {
        errno = 0;
        die("no board name to edit");
    }
    char *abs = realpath(spec, NULL);
    if (!abs)
        die(spec);
    Str uri = {0};
    puts_(&uri, "file://");
    for (const char *s = abs; *s; s++) {
        char e[4];
        if (strchr("-._~/", *s) || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))
            put(&uri, s, 1);
        else
            snprintf(e, sizeof e, "%%%02X", (unsigned char)*s), puts_(&uri, e);
    }

    start_server(segc);
    Str m = {0}, reply = {0};
    puts_(&m, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,"
              "\"rootUri\":null,\"capabilities\":{}}}");
    send_msg(&m);
    recv_msg(&reply);
    m.len = 0;
    puts_(&m, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    send_msg(&m);
    m.len = 0;
    puts_(&m, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"");
    puts_(&m, uri.p);
    puts_(&m, "\",\"languageId\":\"yaml\",\"version\":1,\"text\":\"");
    put_json(&m, text.p, text.len);
    puts_(&m, "\"}}}");
    send_msg(&m);
    wait_diagnostics(1, &reply);

    double t_srv = 0, t_chk = 0;
    int disagree = 0, errors = 0;
    for (int i = 0; i <= edits; i++) { /* round 0: untimed */
        char c = text.p[at] == 'a' ? 'b' : 'a';
        text.p[at] = c;
        long version = i + 2;
        m.len = 0;
        char head[512];
        snprintf(head, sizeof head,
                 "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":\"%s\","
                 "\"version\":%ld},\"contentChanges\":[{\"range\":{\"start\":{\"line\":%u,\"character\":%u},"
                 "\"end\":{\"line\":%u,\"character\":%u}},\"text\":\"%c\"}]}}",
                 uri.p, version, line, col, line, col + 1, c);
        puts_(&m, head);
        double t0 = now_ms();
        send_msg(&m);
        bool srv_err = wait_diagnostics(version, &reply);
        double t1 = now_ms();
        write_file(spec, text.p, text.len);
        double t2 = now_ms();
        int rc = run_check(segc, spec);
        double t3 = now_ms();
        if (rc != 0 && rc != 1) {
            errno = 0;
            die("segc check exited with neither 0 nor 1");
        }
        if (i) {
            t_srv += t1 - t0, t_chk += t3 - t2;
            disagree += srv_err != (rc == 1);
            errors += rc == 1;
        }
    }
    m.len = 0;
    puts_(&m, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
    send_msg(&m);
    m.len = 0;
    puts_(&m, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    send_msg(&m);
    close(to_srv);
    int st;
    wait(&st);

    const char *name = strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec;
    double s = t_srv / edits, k = t_chk / edits;
    printf("%-22s %7zu %4d | %9.3f %9.3f | %6.3f  %s%s\n", name, text.len, edits, s, k, s / k,
           s / k <= 1 ? "ok: the server is faster" : "NOT ACCEPTABLE: the server is slower than check",
           disagree ? " (server and check disagree on errors!)" : errors ? " (the spec has errors)" : "");
    free(text.p), free(uri.p), free(m.p), free(reply.p), free(abs);
    return disagree ? 1 : 0;
}
