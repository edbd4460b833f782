/* SPDX-License-Identifier: MIT */
/* json.c - the one JSON writer of segc (diagnostics, SARIF, dump, diff).
 *
 * Output is pretty-printed with two-space indentation and keys come out in
 * the order the caller writes them, so every document segc prints is
 * byte-for-byte deterministic.  Numbers are exact in every reader: a JSON
 * number is at most 2^53 (counts, ids, lines, columns); a 64-bit quantity
 * (an address, a size, any value of a spec) is the string "0x1F" instead.
 * Every place is the same three keys, "file", "line", "column".  Strings are always valid UTF-8: control
 * characters (C0, DEL and C1) are escaped, other non-ASCII characters pass
 * through, and bytes that are not UTF-8 (a file name from the command line,
 * say) become U+FFFD. */
#include "segc.h"

#include <string.h>

void json_init(JsonW *w, Buf *out)
{
    *w = (JsonW){.out = out};
}

static void newline(JsonW *w)
{
    buf_printf(w->out, "\n%*s", (int)(2 * w->depth), "");
}

/* Before any value or key: the comma and line break it needs. */
static void before_item(JsonW *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    if (w->nonempty & (1ull << (w->depth - 1)))
        buf_putc(w->out, ',');
    w->nonempty |= 1ull << (w->depth - 1);
    newline(w);
}

static void begin(JsonW *w, char c)
{
    before_item(w);
    ASSERT(w->depth < JSON_MAX_DEPTH);
    buf_putc(w->out, c);
    w->depth++;
    w->nonempty &= ~(1ull << (w->depth - 1));
}

static void end(JsonW *w, char c)
{
    ASSERT(w->depth > 0 && !w->after_key);
    bool had = w->nonempty & (1ull << (w->depth - 1));
    w->depth--;
    if (had)
        newline(w);
    buf_putc(w->out, c);
    if (w->depth == 0)
        buf_putc(w->out, '\n');
}

void json_obj_begin(JsonW *w) { begin(w, '{'); }
void json_obj_end(JsonW *w) { end(w, '}'); }
void json_arr_begin(JsonW *w) { begin(w, '['); }
void json_arr_end(JsonW *w) { end(w, ']'); }

/* Length of the UTF-8 sequence at s (at most n bytes) by its first byte,
 * or 0 if it is not a well-formed one (util.c's utf8_check decides). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    return utf8_check(s, len < n ? len : n) == len ? len : 0;
}

size_t utf8_count(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; count++) {
        size_t k = utf8_seq((const unsigned char *)s + i, n - i);
        i += k ? k : 1; /* a stray byte counts as one character */
    }
    return count;
}

/* The characters JSON escapes with a letter, and those letters. */
static const char short_from[] = "\"\\\n\r\t\b\f", short_to[] = "\"\\nrtbf";

void json_escape(Buf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq(p + i, n - i);
        if (!k) {
            buf_puts(b, "\\ufffd");
            i++;
            continue;
        }
        /* The code point where it matters: below U+00C0 (C2 xx is U+00xx). */
        unsigned cp = k == 1 || (k == 2 && p[i] == 0xC2) ? p[i + k - 1] : 0xC0;
        const char *short_esc = cp ? strchr(short_from, (int)cp) : NULL;
        if (short_esc)
            buf_printf(b, "\\%c", short_to[short_esc - short_from]);
        else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
            buf_printf(b, "\\u%04x", cp);
        else
            buf_putn(b, s + i, k);
        i += k;
    }
}

void json_key(JsonW *w, const char *key)
{
    ASSERT(!w->after_key);
    json_str(w, key);
    buf_puts(w->out, ": ");
    w->after_key = true;
}

void json_str(JsonW *w, const char *s)
{
    if (!s) {
        json_nul(w);
        return;
    }
    before_item(w);
    buf_putc(w->out, '"');
    json_escape(w->out, s, strlen(s));
    buf_putc(w->out, '"');
}

void json_uint(JsonW *w, uint64_t v)
{
    ASSERT(v <= UINT64_C(1) << 53); /* larger: json_hex */
    before_item(w);
    buf_printf(w->out, "%llu", (unsigned long long)v);
}

void json_hex(JsonW *w, uint64_t v)
{
    before_item(w);
    buf_printf(w->out, "\"0x%llX\"", (unsigned long long)v);
}

void json_raw(JsonW *w, const char *text)
{
    before_item(w);
    buf_puts(w->out, text);
}

void json_bool(JsonW *w, bool v) { json_raw(w, v ? "true" : "false"); }
void json_nul(JsonW *w) { json_raw(w, "null"); }

/* "key": value, for each kind of value. */
#define KEYED(name, T, put)                         \
    void name(JsonW *w, const char *key, T v)       \
    {                                               \
        json_key(w, key);                           \
        put(w, v);                                  \
    }
KEYED(json_kstr, const char *, json_str)
KEYED(json_kuint, uint64_t, json_uint)
KEYED(json_khex, uint64_t, json_hex)
KEYED(json_kbool, bool, json_bool)
#undef KEYED

void json_kobj(JsonW *w, const char *key)
{
    json_key(w, key);
    json_obj_begin(w);
}

bool json_kobj_if(JsonW *w, const char *key, bool present)
{
    json_key(w, key);
    if (present)
        json_obj_begin(w);
    else
        json_nul(w);
    return present;
}

void json_karr(JsonW *w, const char *key)
{
    json_key(w, key);
    json_arr_begin(w);
}

void json_place(JsonW *w, const char *file, uint32_t line, uint32_t column)
{
    json_kstr(w, "file", file);
    json_kline(w, "line", line);
    json_kline(w, "column", column);
}

void json_kline(JsonW *w, const char *key, uint32_t v)
{
    json_key(w, key);
    if (v)
        json_uint(w, v);
    else
        json_nul(w);
}

void json_tool_begin(JsonW *w, const char *key)
{
    json_kobj(w, key);
    json_kstr(w, "name", "segc");
    json_kstr(w, "version", SEGC_VERSION);
}

void json_doc_begin(JsonW *w, Buf *out, const char *format_key, unsigned version)
{
    json_init(w, out);
    json_obj_begin(w);
    json_kuint(w, format_key, version);
    json_tool_begin(w, "tool");
    json_obj_end(w);
}
