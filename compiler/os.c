/* SPDX-License-Identifier: MIT */
/* os.c - everything segc asks of the operating system, for POSIX and for
 * Windows (segc.exe, built with mingw-w64).
 *
 * Paths are UTF-8 everywhere in segc; on Windows they become UTF-16 only
 * here, at the wide-character API, so any file name works whatever the
 * console's code page.  Files are always binary: a generated file has the
 * same LF bytes on every system. */
#include "segc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void (*cleanup_fn)(void); /* what a signal or Ctrl-C must undo */

bool os_is_sep(char c)
{
    return c == '/' || (OS_WINDOWS && c == '\\');
}

const char *os_basename(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (os_is_sep(*p) || (OS_WINDOWS && *p == ':' && p == path + 1))
            b = p + 1;
    return b;
}

bool os_is_absolute(const char *p)
{
    return os_is_sep(p[0]) || (OS_WINDOWS && p[0] && p[1] == ':');
}

static void list_add(char ***list, size_t *n, char *s)
{
    *list = xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = s;
}

#ifdef _WIN32
#include <io.h>
#include <wctype.h>
#include <windows.h>

/* Does `name` match `pat` (only * and ?, as Windows has them)? */
static bool wild_match(const char *pat, const char *name)
{
    if (*pat == '*')
        return wild_match(pat + 1, name) || (*name && wild_match(pat, name + 1));
    if (!*pat || !*name)
        return !*pat && !*name;
    return (*pat == '?' || *pat == *name) && wild_match(pat + 1, name + 1);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* UTF-8 -> UTF-16 (malloc'd); NULL (errno EINVAL) for invalid UTF-8. */
static wchar_t *wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    wchar_t *w = xmalloc((size_t)n * sizeof *w);
    MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
    return w;
}

static char *narrow(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    char *s = xmalloc(n > 0 ? (size_t)n : 1);
    if (n <= 0 || !WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL))
        s[0] = 0;
    return s;
}

/* The errno of the last failed Win32 call, for strerror. */
static int win_errno(void)
{
    switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND: case ERROR_PATH_NOT_FOUND: case ERROR_INVALID_NAME: return ENOENT;
    case ERROR_ACCESS_DENIED: case ERROR_SHARING_VIOLATION: case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT: return EACCES;
    case ERROR_ALREADY_EXISTS: case ERROR_FILE_EXISTS: return EEXIST;
    case ERROR_DISK_FULL: case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_NOT_ENOUGH_MEMORY: case ERROR_OUTOFMEMORY: return ENOMEM;
    default: return EIO;
    }
}

static UINT saved_cp;

static void restore_cp(void)
{
    SetConsoleOutputCP(saved_cp);
}

void os_init(int *argc, char ***argv)
{
    /* The arguments as UTF-8, from the UTF-16 command line. */
    int n;
    wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
    if (w) {
        char **a = xmalloc(((size_t)n + 1) * sizeof *a);
        for (int i = 0; i < n; i++)
            a[i] = narrow(w[i]);
        a[n] = NULL;
        LocalFree(w);
        *argc = n;
        *argv = a;
    }
    /* The same bytes as on Linux: no CR added, UTF-8 on the console. */
    for (int fd = 0; fd < 3; fd++) /* standard input, output and error */
        _setmode(fd, _O_BINARY);
    saved_cp = GetConsoleOutputCP();
    if (saved_cp && saved_cp != CP_UTF8 && SetConsoleOutputCP(CP_UTF8))
        atexit(restore_cp);
}

FILE *os_fopen(const char *path, const char *mode)
{
    wchar_t *w = wide(path), *m = wide(mode);
    FILE *f = w && m ? _wfopen(w, m) : NULL;
    free(w);
    free(m);
    return f;
}

OsKind os_kind(const char *path)
{
    wchar_t *w = wide(path);
    DWORD at = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
    free(w);
    if (at == INVALID_FILE_ATTRIBUTES)
        return OS_MISSING;
    if (at & FILE_ATTRIBUTE_DIRECTORY)
        return OS_DIR;
    return at & (FILE_ATTRIBUTE_DEVICE | FILE_ATTRIBUTE_REPARSE_POINT) ? OS_OTHER : OS_FILE;
}

int os_mkdir(const char *path)
{
    wchar_t *w = wide(path);
    int e = !w ? EINVAL : CreateDirectoryW(w, NULL) ? 0 : win_errno();
    free(w);
    return e;
}

char *os_realpath(const char *path)
{
    wchar_t *w = wide(path), buf[32768];
    DWORD n = w ? GetFullPathNameW(w, 32768, buf, NULL) : 0;
    free(w);
    if (n == 0 || n >= 32768)
        return NULL;
    /* One spelling per file: Windows names are case-insensitive. */
    for (wchar_t *c = buf; *c; c++)
        *c = towlower(*c);
    return narrow(buf);
}

unsigned os_ncpu(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors ? si.dwNumberOfProcessors : 1;
}

bool os_stderr_tty(void)
{
    DWORD mode;
    return GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

/* Colour only on a console that interprets escape sequences (Windows 10
 * and later, once asked to). */
bool os_color_auto(void)
{
    HANDLE h = GetStdHandle(STD_ERROR_HANDLE);
    DWORD mode;
    return GetConsoleMode(h, &mode) &&
           ((mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) ||
            SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING));
}

char **os_glob(const char *pattern, size_t *count)
{
    const char *base = os_basename(pattern);
    wchar_t *w = wide(pattern);
    WIN32_FIND_DATAW fd;
    HANDLE h = w ? FindFirstFileW(w, &fd) : INVALID_HANDLE_VALUE;
    free(w);
    char **list = NULL;
    *count = 0;
    if (h == INVALID_HANDLE_VALUE)
        return NULL;
    do {
        char *name = narrow(fd.cFileName);
        /* FindFirstFileW also matches 8.3 short names: check the real one. */
        if (strcmp(name, ".") && strcmp(name, "..") && wild_match(base, name)) {
            Buf full = {0}; /* its bytes are malloc'd: the caller frees them */
            buf_printf(&full, "%.*s%s", (int)(base - pattern), pattern, name);
            list_add(&list, count, full.p);
        }
        free(name);
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    if (*count)
        qsort(list, *count, sizeof *list, cmp_str);
    return list;
}

int os_mkstemp(char *tmpl)
{
    size_t n = strlen(tmpl);
    static unsigned long seq;
    for (int tries = 0; tries < 100; tries++) {
        unsigned long r = (unsigned long)GetCurrentProcessId() * 7919u + GetTickCount() + ++seq * 104729u;
        for (size_t i = n - 6; i < n; i++, r /= 36)
            tmpl[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[r % 36];
        wchar_t *w = wide(tmpl);
        int fd = w ? _wopen(w, _O_CREAT | _O_EXCL | _O_RDWR | _O_BINARY, _S_IREAD | _S_IWRITE) : -1;
        free(w);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

/* Replaces the target in one step, and only once the data is on disk. */
bool os_replace(const char *from, const char *to)
{
    wchar_t *f = wide(from), *t = wide(to);
    bool ok = f && t && MoveFileExW(f, t, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
    if (!ok)
        errno = f && t ? win_errno() : EINVAL;
    free(f);
    free(t);
    return ok;
}

void os_remove(const char *path)
{
    wchar_t *w = wide(path);
    if (w)
        DeleteFileW(w);
    free(w);
}

/* Ctrl-C, Ctrl-Break, closing the console: undo, then let Windows end
 * the process as it would have. */
static BOOL WINAPI on_ctrl(DWORD type)
{
    (void)type;
    if (cleanup_fn)
        cleanup_fn();
    return FALSE;
}

#else /* POSIX */
#include <glob.h>
#include <unistd.h>

void os_init(int *argc, char ***argv)
{
    (void)argc, (void)argv;
}

FILE *os_fopen(const char *path, const char *mode)
{
    return fopen(path, mode);
}

OsKind os_kind(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return OS_MISSING;
    if (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return OS_DIR;
    return S_ISDIR(st.st_mode) ? OS_DIR : S_ISREG(st.st_mode) ? OS_FILE : OS_OTHER;
}

int os_mkdir(const char *path)
{
    return mkdir(path, 0777) == 0 ? 0 : errno;
}

char *os_realpath(const char *path)
{
    return realpath(path, NULL);
}

unsigned os_ncpu(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

bool os_stderr_tty(void)
{
    return isatty(STDERR_FILENO);
}

bool os_color_auto(void)
{
    const char *term = getenv("TERM");
    return isatty(STDERR_FILENO) && term && strcmp(term, "dumb");
}

char **os_glob(const char *pattern, size_t *count)
{
    glob_t g;
    char **list = NULL;
    *count = 0;
    if (glob(pattern, 0, NULL, &g) != 0)
        return NULL;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        size_t n = strlen(g.gl_pathv[i]) + 1;
        list_add(&list, count, memcpy(xmalloc(n), g.gl_pathv[i], n));
    }
    globfree(&g);
    return list;
}

int os_mkstemp(char *tmpl)
{
    return mkstemp(tmpl);
}

bool os_replace(const char *from, const char *to)
{
    return rename(from, to) == 0;
}

void os_remove(const char *path)
{
    unlink(path);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
static struct sigaction old_action[sizeof caught / sizeof caught[0]];

static void on_signal(int sig)
{
    if (cleanup_fn)
        cleanup_fn();
    signal(sig, SIG_DFL);
    raise(sig);
}
#endif

void os_guard(void (*cleanup)(void))
{
    cleanup_fn = cleanup;
#ifdef _WIN32
    SetConsoleCtrlHandler(on_ctrl, cleanup != NULL);
#else
    for (size_t i = 0; i < countof(caught); i++) {
        struct sigaction sa = {.sa_handler = on_signal};
        sigemptyset(&sa.sa_mask);
        if (cleanup)
            sigaction(caught[i], &sa, &old_action[i]);
        /* Called with NULL, the old handlers come back.  A signal ignored on
         * entry (nohup, a background job) stays ignored: catching it would
         * make segc die of it. */
        if (!cleanup || old_action[i].sa_handler == SIG_IGN)
            sigaction(caught[i], &old_action[i], NULL);
    }
#endif
}

/* The shell popen runs gets REV:./PATH quoted: in '...' for sh (a quote
 * as '\''), in "..." for cmd.exe (no Windows path holds a '"'). */
FILE *os_git_open(const char *rev, const char *path)
{
    if (OS_WINDOWS && (strchr(rev, '"') || strchr(path, '"'))) {
        errno = EINVAL;
        return NULL;
    }
    const char *q = OS_WINDOWS ? "\"" : "'", *parts[] = {rev, ":./", path};
    Buf cmd = {0};
    buf_printf(&cmd, "git cat-file blob %s", q);
    for (size_t i = 0; i < countof(parts); i++)
        for (const char *p = parts[i]; *p; p++)
            if (!OS_WINDOWS && *p == '\'')
                buf_puts(&cmd, "'\\''");
            else
                buf_putc(&cmd, OS_WINDOWS && *p == '\\' ? '/' : *p);
    buf_printf(&cmd, "%s 2>%s", q, OS_WINDOWS ? "NUL" : "/dev/null");
#ifdef _WIN32
    wchar_t *w = wide(cmd.p);
    FILE *f = w ? _wpopen(w, L"rb") : NULL;
    free(w);
#else
    FILE *f = popen(cmd.p, "r");
#endif
    buf_free(&cmd);
    return f;
}

int os_git_close(FILE *f)
{
    return pclose(f); /* _pclose on Windows */
}

bool os_write_durable(int fd, const char *p, size_t n)
{
    bool ok = true;
    while (ok && n > 0) {
        /* At most 1 GiB at a time: Windows counts in an unsigned int. */
        long w = (long)write(fd, p, n > 1u << 30 ? 1u << 30 : (unsigned)n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w == 0)
            errno = EIO;
        if ((ok = w > 0))
            p += w, n -= (size_t)w;
    }
#ifdef _WIN32
    ok = ok && _commit(fd) == 0;
#else
    mode_t mask = umask(0); /* the umask's permissions, as open(2) gives them */
    umask(mask);
    ok = ok && fchmod(fd, 0666 & ~mask) == 0 && fsync(fd) == 0;
#endif
    int e = ok ? 0 : errno; /* the first failure is the one reported */
    ok = close(fd) == 0 && ok;
    if (e)
        errno = e;
    return ok;
}
