/* SPDX-License-Identifier: MIT */
/* shim.c - an LD_PRELOAD library that makes segc's file writing fail on
 * demand, for tests/cases/hostile/disk.sh.  Only descriptors above 2 are touched
 * (diagnostics still reach stderr).  Environment:
 *
 *   SHIM_ENOSPC_AFTER=N   write() stores N bytes in all, then fails: ENOSPC
 *   SHIM_FSYNC_EIO=1      fsync() fails: EIO
 *   SHIM_WRITE_EINTR=1    every other write() is interrupted before it
 *                         stores anything: EINTR (a retry goes through)
 *   SHIM_WRITE_ZERO=1     write() stores nothing and returns 0
 *   SHIM_CLOSE_EIO=1      close() fails: EIO (after closing the descriptor)
 *   SHIM_MKSTEMP_EROFS=1  mkstemp() fails: EROFS (a read-only directory,
 *                         which root cannot get from chmod)
 *   SHIM_SLOW_WRITE=S     the first write() stores half its bytes, then
 *                         sleeps S seconds (so a test can signal segc
 *                         while a temporary file is half written)
 *   SHIM_DEFAULT_SIGINT=1 SIGINT back to its default action at start (a
 *                         background job of a script inherits it ignored)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static long budget = -1;
static int slow_done;

__attribute__((constructor)) static void shim_init(void)
{
    const char *s = getenv("SHIM_ENOSPC_AFTER");
    if (s)
        budget = atol(s);
    if (getenv("SHIM_DEFAULT_SIGINT"))
        signal(SIGINT, SIG_DFL);
}

static ssize_t real_write(int fd, const void *buf, size_t n)
{
    static ssize_t (*w)(int, const void *, size_t);
    if (!w)
        w = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    return w(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    if (fd <= 2)
        return real_write(fd, buf, n);
    const char *slow = getenv("SHIM_SLOW_WRITE");
    if (slow && !slow_done && n > 1) {
        slow_done = 1;
        ssize_t w = real_write(fd, buf, n / 2);
        unsigned left = (unsigned)atoi(slow);
        while (left)
            left = sleep(left); /* a caught signal ends the wait early */
        return w;
    }
    static int interrupted;
    if (getenv("SHIM_WRITE_EINTR") && !interrupted++) {
        errno = EINTR;
        return -1;
    }
    interrupted = 0;
    if (getenv("SHIM_WRITE_ZERO"))
        return 0;
    if (budget >= 0) {
        if (budget == 0) {
            errno = ENOSPC;
            return -1;
        }
        if ((long)n > budget)
            n = (size_t)budget;
        ssize_t w = real_write(fd, buf, n);
        if (w > 0)
            budget -= w;
        return w;
    }
    return real_write(fd, buf, n);
}

int close(int fd)
{
    static int (*c)(int);
    if (!c)
        c = (int (*)(int))dlsym(RTLD_NEXT, "close");
    int r = c(fd);
    if (fd > 2 && r == 0 && getenv("SHIM_CLOSE_EIO")) {
        errno = EIO;
        return -1;
    }
    return r;
}

int fsync(int fd)
{
    static int (*f)(int);
    if (fd > 2 && getenv("SHIM_FSYNC_EIO")) {
        errno = EIO;
        return -1;
    }
    if (!f)
        f = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return f(fd);
}

int mkstemp(char *tmpl)
{
    static int (*m)(char *);
    if (getenv("SHIM_MKSTEMP_EROFS")) {
        errno = EROFS;
        return -1;
    }
    if (!m)
        m = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
    return m(tmpl);
}
