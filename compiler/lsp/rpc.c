/* SPDX-License-Identifier: MIT */
/* rpc.c - LSP base protocol: a header part, a blank line, a JSON body. */
#include "lsp.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One header line without its CR LF into line[]; false at the end of the
 * stream before any byte.  *over: the line was longer than the buffer (the
 * rest is skipped). */
static bool read_line(FILE *in, char line[static RPC_MAX_HEADER_LINE], bool *over)
{
    size_t n = 0;
    int c;
    *over = false;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n + 1 < RPC_MAX_HEADER_LINE)
            line[n++] = (char)c;
        else
            *over = true;
    }
    if (c == EOF && n == 0 && !*over)
        return false;
    if (n && line[n - 1] == '\r')
        n--;
    line[n] = 0;
    return true;
}

/* Content-Length's value: digits only, no sign, no overflow. */
static bool parse_length(const char *s, size_t *out)
{
    s += strspn(s, " \t");
    if (!isdigit((unsigned char)*s))
        return false;
    size_t v = 0;
    for (; isdigit((unsigned char)*s); s++) {
        if (v > (SIZE_MAX - 9) / 10)
            return false;
        v = v * 10 + (size_t)(*s - '0');
    }
    s += strspn(s, " \t");
    *out = v;
    return *s == 0;
}

ReadStatus rpc_read(FILE *in, Buf *body, const char **why)
{
    char line[RPC_MAX_HEADER_LINE];
    bool over, have_len = false, len_ok = false, bad = false, any = false;
    size_t len = 0;
    body->len = 0;
    *why = NULL;
    for (unsigned nlines = 0;; nlines++) {
        if (!read_line(in, line, &over)) {
            if (!any)
                return READ_EOF;
            *why = "the stream ended inside a header";
            return READ_BAD;
        }
        if (!line[0] && !over) {
            if (!any)
                continue; /* blank lines between messages */
            break;
        }
        any = true;
        char *colon = strchr(line, ':');
        if (over || !colon) {
            *why = over ? "a header line is too long" : "a header line has no ':'";
            bad = true;
            continue;
        }
        /* Refused, but a Content-Length among them is still read: the
         * body is not the next message's header. */
        if (nlines > 64 && !bad) {
            *why = "too many header lines";
            bad = true;
        }
        *colon = 0;
        if (!strcasecmp(line, "Content-Length")) {
            /* A second one is refused; the first, when a number, still
             * says how far the body goes. */
            if (have_len || !(len_ok = parse_length(colon + 1, &len))) {
                *why = have_len ? "Content-Length given twice" : "Content-Length is not a number";
                bad = true;
            }
            have_len = true;
        }
    }
    if (!bad && !have_len) {
        *why = "a message has no Content-Length";
        bad = true;
    }
    /* A refused message whose length is known is read through (its body
     * is not the next message's header). */
    if (bad && !len_ok)
        return READ_BAD;
    /* A body over the limit is read through and dropped, so the next
     * message is still found. */
    bool keep = !bad && len <= RPC_MAX_BODY;
    char chunk[16384];
    for (size_t left = len; left;) {
        size_t n = fread(chunk, 1, left < sizeof chunk ? left : sizeof chunk, in);
        if (!n) {
            *why = "the stream ended inside a message body";
            return READ_BAD;
        }
        if (keep)
            buf_putn(body, chunk, n);
        left -= n;
    }
    if (bad)
        return READ_BAD;
    if (!keep)
        return READ_TOO_BIG;
    buf_putc(body, 0);
    body->len--;
    return READ_OK;
}

bool rpc_write(FILE *out, const json_t *msg)
{
    char *s = json_dumps(msg, JSON_COMPACT);
    if (!s)
        segc_oom();
    size_t n = strlen(s);
    bool ok = fprintf(out, "Content-Length: %zu\r\n\r\n", n) > 0 && fwrite(s, 1, n, out) == n && fflush(out) == 0;
    free(s);
    return ok;
}

json_t *rpc_fail(RpcError *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return NULL;
}
