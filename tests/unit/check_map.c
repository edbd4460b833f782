/* SPDX-License-Identifier: MIT */
/* check_map.c - map_render's text: sizes in human units and hex, XML
 * escaping of names, the same SVG inside the HTML page, the same bytes on
 * every run.  (tests/gen/map.sh checks the drawing itself in a browser.) */
#include "segc.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Base of every case: one segment whose name, size and flags the case fills in. */
static const char spec_fmt[] =
    "segc: 1\n"
    "board: { name: b, wddm: \"1.3\", arch: x64 }\n"
    "segments:\n"
    "  - { name: %s, kind: memory, base: 0x1_0000_0000, size: %s }\n"
    "  - { name: gart, kind: aperture, base: 1TiB, size: 4MiB }\n";

typedef struct Map {
    Arena *a;
    Diags d;
    const Spec *s;
    Buf svg, html;
} Map;

static void draw_spec(Map *m, const char *text)
{
    m->a = arena_new();
    diags_init(&m->d, m->a);
    Spec *s = spec_from_string(m->a, "t.yaml", text, NULL, &m->d);
    ck_assert_msg(s != NULL, "spec does not resolve: %s", m->d.head ? m->d.head->msg : "?");
    m->s = s;
    RuleConfig rc;
    rules_default(&rc);
    spec_check(s, &rc, &m->d);
    memset(&m->svg, 0, sizeof m->svg);
    memset(&m->html, 0, sizeof m->html);
    ck_assert(map_render(m->a, s, &m->d, MAP_SVG, &m->svg));
    ck_assert(map_render(m->a, s, &m->d, MAP_HTML, &m->html));
    buf_putc(&m->svg, 0);
    m->svg.len--;
    buf_putc(&m->html, 0);
    m->html.len--;
}

static void draw(Map *m, const char *name, const char *size)
{
    char text[1024];
    snprintf(text, sizeof text, spec_fmt, name, size);
    draw_spec(m, text);
}

static void done(Map *m)
{
    buf_free(&m->svg);
    buf_free(&m->html);
    arena_free(m->a);
}

/* Sizes as a label shows them: human units, then exact hex. */
static const struct {
    const char *size, *shown;
} sizes[] = {
    {"2GiB", "memory, 2 GiB (0x8000_0000)"},
    {"7936MiB", "memory, 7.75 GiB (0x1_F000_0000)"},
    {"1GiB + 512MiB", "memory, 1.50 GiB (0x6000_0000)"},
    {"64KiB", "memory, 64 KiB (0x1_0000)"},
    {"4096", "memory, 4 KiB (0x1000)"},
    {"3GiB + 4KiB", "memory, \xE2\x89\x88" "3.00 GiB (0xC000_1000)"},
    {"1GiB - 4KiB", "memory, \xE2\x89\x88" "1024.00 MiB (0x3FFF_F000)"},
    {"5TiB", "memory, 5 TiB (0x500_0000_0000)"},
};

START_TEST(test_size_text)
{
    Map m;
    draw(&m, "vram", sizes[_i].size);
    ck_assert_msg(strstr(m.svg.p, sizes[_i].shown) != NULL, "%s: no '%s' in the SVG", sizes[_i].size,
                  sizes[_i].shown);
    done(&m);
}
END_TEST

START_TEST(test_escaping)
{
    Map m;
    /* A name that is no C identifier is a rule error, not a resolve error,
     * so it reaches the map; a control character becomes U+FFFD. */
    draw(&m, "\"<v&r'am>\\x01\"", "1GiB");
    ck_assert_uint_eq(m.d.nerrors, 1);
    ck_assert_ptr_nonnull(strstr(m.svg.p, ">&lt;v&amp;r&#39;am&gt;\xEF\xBF\xBD  (id 1)</text>"));
    ck_assert_ptr_null(strstr(m.svg.p, "<v&"));
    ck_assert_ptr_null(strstr(m.svg.p, "\x01"));
    ck_assert_ptr_nonnull(strstr(m.svg.p, "error: names-c-ident"));
    done(&m);
}
END_TEST

START_TEST(test_html_holds_svg)
{
    Map m;
    draw(&m, "vram", "2GiB");
    const char *svg = strstr(m.svg.p, "<svg ");
    ck_assert_ptr_nonnull(svg);
    ck_assert(strncmp(m.svg.p, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39) == 0);
    /* the title at the top left: x is the margin, y one title line below it */
    ck_assert_ptr_nonnull(strstr(m.svg.p, "<text class=\"h\" x=\"16\" y=\"33\">"));
    ck_assert_ptr_nonnull(strstr(m.html.p, svg));
    ck_assert(strncmp(m.html.p, "<!DOCTYPE html>\n", 16) == 0);
    ck_assert_ptr_null(strstr(m.html.p, "<script"));
    /* the table: one row per segment, flags by name and value */
    ck_assert_ptr_nonnull(strstr(m.html.p, "<td>gart</td><td>aperture</td><td>Aperture (0x00000001)</td>"));
    ck_assert_ptr_nonnull(strstr(m.html.p, "<td class=\"num\">0x100_0000_0000</td><td class=\"num\">4 MiB (0x40_0000)</td>"
                                           "<td class=\"num\">0x100_0040_0000</td>"));
    done(&m);
}
END_TEST

START_TEST(test_deterministic)
{
    Map m1, m2;
    draw(&m1, "vram", "16GiB");
    draw(&m2, "vram", "16GiB");
    ck_assert_uint_eq(m1.svg.len, m2.svg.len);
    ck_assert(memcmp(m1.svg.p, m2.svg.p, m1.svg.len) == 0);
    ck_assert_uint_eq(m1.html.len, m2.html.len);
    ck_assert(memcmp(m1.html.p, m2.html.p, m1.html.len) == 0);
    /* 4 MiB next to 16 GiB: drawn taller, and the map says so */
    ck_assert_ptr_nonnull(strstr(m1.svg.p, "aperture, 4 MiB (0x40_0000), not to scale"));
    ck_assert_ptr_nonnull(strstr(m1.svg.p, "gap: 1004 GiB unused"));
    /* both names are drawn inside their shapes */
    ck_assert_ptr_nonnull(strstr(m1.svg.p, "<text class=\"in b\""));
    ck_assert_ptr_nonnull(strstr(m1.svg.p, " text-anchor=\"middle\">vram</text>"));
    ck_assert_ptr_nonnull(strstr(m1.svg.p, " text-anchor=\"middle\">gart</text>"));
    done(&m1);
    done(&m2);
}
END_TEST

/* What a reviewer must see however thin it is: the firmware's part of a
 * carve-out, the bytes past the last bank, an overlap, a BAR nothing uses. */
START_TEST(test_marked_parts)
{
    static const char spec[] =
        "segc: 1\n"
        "board: { name: b, wddm: \"1.3\", arch: x64 }\n"
        "bars: { regs: { index: 0, size: 16MiB } }\n"
        "segments:\n"
        "  - { name: stolen, kind: memory, base: 0, size: 1GiB, system_memory_end: size - 4MiB - 1,\n"
        "      flags: [preserved_during_standby, partially_preserved_during_hibernate] }\n"
        "  - { name: pool, kind: memory, base: 1GiB, size: 1GiB, banks: [{ name: near, size: 768MiB }] }\n"
        "  - { name: clash, kind: aperture, base: 1GiB + 512MiB, size: 1GiB }\n";
    Map m;
    draw_spec(&m, spec);
    const char *want[] = {
        ">BIOS 4 MiB</text>", /* the short form: two tracks leave no room for "BIOS-reserved 4 MiB" */  ">no bank</text>", "<g class=\"overlap\" data-a=\"pool\" data-b=\"clash\">",
        ">overlap</text>",               ">512 MiB</text>",          ">no segment</text>",
        ">index 0 \xC2\xB7 16 MiB</text>", "<td>no segment</td>",    "no bank: offsets 0x3000_0000 \xE2\x80\x93 0x4000_0000 (256 MiB)",
    };
    for (size_t i = 0; i < countof(want); i++)
        ck_assert_msg(strstr(m.html.p, want[i]) != NULL, "no '%s' in the page", want[i]);
    /* the pieces are drawn at least the shortest piece tall */
    const char *fw = strstr(m.svg.p, "<rect class=\"fwres\" x=");
    ck_assert_ptr_nonnull(fw);
    double h = 0;
    ck_assert_int_eq(sscanf(strstr(fw, "height=\""), "height=\"%lf", &h), 1);
    ck_assert_msg(h >= 28, "BIOS-reserved part drawn %g px tall", h);
    done(&m);
}
END_TEST

/* A diagnostic too long for the picture is cut whole characters at a
 * time: a file name of 300 two-byte characters (U+00E9, whose second byte
 * is odd), after no ASCII letter and after one (so that a cut counted in
 * bytes would split a character in one of the two), leaves the SVG
 * well-formed UTF-8, the ellipsis after a whole character. */
START_TEST(test_cut_utf8)
{
    char file[1 + 600 + 6] = "x";
    file[_i] = 0;
    for (int i = 0; i < 300; i++)
        strcat(file, "\xC3\xA9");
    strcat(file, ".yaml");
    Arena *a = arena_new();
    Diags d;
    diags_init(&d, a);
    char text[1024];
    snprintf(text, sizeof text, spec_fmt, "\"v-ram\"", "1GiB");
    Spec *s = spec_from_string(a, file, text, NULL, &d);
    ck_assert_ptr_nonnull(s);
    RuleConfig rc;
    rules_default(&rc);
    spec_check(s, &rc, &d);
    ck_assert_uint_eq(d.nerrors, 1);
    Buf svg = {0};
    ck_assert(map_render(a, s, &d, MAP_SVG, &svg));
    ck_assert_uint_eq(utf8_check((const unsigned char *)svg.p, svg.len), svg.len);
    buf_putc(&svg, 0);
    ck_assert_ptr_nonnull(strstr(svg.p, "\xC3\xA9\xE2\x80\xA6</text>"));
    buf_free(&svg);
    arena_free(a);
}
END_TEST

/* The number in attribute `name` of the tag at `tag`. */
static double attr(const char *tag, const char *name)
{
    char key[32];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(tag, key), *end = strchr(tag, '>');
    ck_assert_msg(p && p < end, "no %s in %.80s", name, tag);
    return strtod(p + strlen(key), NULL);
}

/* A BAR's lane: each window inside the BAR's shape, at its offset and in
 * proportion to its size (two halves of a 256 MiB BAR), labelled with the
 * segment's name and then its offset in the BAR. */
START_TEST(test_bar_windows)
{
    static const char spec[] =
        "segc: 1\n"
        "board: { name: b, wddm: \"1.3\", arch: x64 }\n"
        "bars: { fb: { index: 0, size: 256MiB } }\n"
        "segments:\n"
        "  - { name: low, kind: memory, base: 0, size: 128MiB, cpu_visible: { bar: fb, offset: 0 } }\n"
        "  - { name: high, kind: memory, base: 128MiB, size: 128MiB, cpu_visible: { bar: fb, offset: 128MiB } }\n";
    Map m;
    draw_spec(&m, spec);
    const char *bar = strstr(m.svg.p, "<rect class=\"bar\" data-bar=\"fb\"");
    const char *low = strstr(m.svg.p, "<rect class=\"win memory\" data-name=\"low\"");
    const char *high = strstr(m.svg.p, "<rect class=\"win memory\" data-name=\"high\"");
    ck_assert_ptr_nonnull(bar);
    ck_assert_ptr_nonnull(low);
    ck_assert_ptr_nonnull(high);
    double top = attr(bar, "y"), h = attr(bar, "height");
    ck_assert_msg(h > 0, "BAR drawn %g px tall", h);
    ck_assert_double_eq_tol(attr(low, "y"), top, 0.01);
    ck_assert_double_eq_tol(attr(low, "height"), h / 2, 0.01);
    ck_assert_double_eq_tol(attr(high, "y"), top + h / 2, 0.01);
    ck_assert_double_eq_tol(attr(high, "height"), h / 2, 0.01);
    ck_assert_ptr_nonnull(strstr(low, "text-anchor=\"middle\">low</text>\n<text class=\"in\""));
    ck_assert_ptr_nonnull(strstr(low, "text-anchor=\"middle\">+0x0</text>"));
    ck_assert_ptr_nonnull(strstr(high, "text-anchor=\"middle\">high</text>\n<text class=\"in\""));
    ck_assert_ptr_nonnull(strstr(high, "text-anchor=\"middle\">+0x800_0000</text>"));
    done(&m);
}
END_TEST

/* The allocation classes' table: the id column monospaced, the others not. */
START_TEST(test_class_table)
{
    static const char spec[] =
        "segc: 1\n"
        "board: { name: b, wddm: \"1.3\", arch: x64 }\n"
        "segments:\n"
        "  - { name: vram, kind: memory, base: 0, size: 1GiB }\n"
        "allocations:\n"
        "  - { name: first, prefer: [vram], write: [vram] }\n"
        "  - { name: second, prefer: [vram], write: [vram] }\n";
    Map m;
    draw_spec(&m, spec);
    ck_assert_msg(strstr(m.html.p, "<tr><td>second</td><td class=\"num\">1</td><td>0x1: vram (1)</td>") != NULL,
                  "no class row in:\n%s", strstr(m.html.p, "<table id=\"classes\">"));
    done(&m);
}
END_TEST

/* Text XML 1.0 cannot carry: U+FFFE and U+FFFF become U+FFFD, and a
 * character that merely ends in the same two bytes (U+2FFF) stays. */
START_TEST(test_xml_nonchars)
{
    Map m;
    draw(&m, "\"a\\uFFFEb\\uFFFFc\\u2FFFd\"", "1GiB");
    ck_assert_ptr_nonnull(strstr(m.svg.p, ">a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xE2\xBF\xBF" "d  (id 1)</text>"));
    ck_assert_ptr_null(strstr(m.svg.p, "\xEF\xBF\xBE"));
    ck_assert_ptr_null(strstr(m.html.p, "\xEF\xBF\xBF"));
    done(&m);
}
END_TEST

/* The Markdown list: '_' escaped unless inside a word (a name's last '_'
 * is not), a 64-bit address with all sixteen hex digits grouped by four. */
START_TEST(test_markdown)
{
    static const char spec[] =
        "segc: 1\n"
        "board: { name: b, wddm: \"1.3\", arch: x64 }\n"
        "segments:\n"
        "  - { name: v_ram_, kind: memory, base: 0, size: 1GiB }\n"
        "  - { name: gart, kind: aperture, base: 0x8000_0000_0000_0000, size: 4MiB }\n"
        "  - { name: \"=_x_=\", kind: aperture, base: 1TiB, size: 4MiB }\n";
    Map m;
    draw_spec(&m, spec);
    Buf md = {0};
    ck_assert(map_render(m.a, m.s, &m.d, MAP_MARKDOWN, &md));
    buf_putc(&md, 0);
    ck_assert_msg(strstr(md.p, "| v_ram\\_ |") != NULL, "no '| v_ram\\_ |' in:\n%s", md.p);
    ck_assert_msg(strstr(md.p, "0x8000_0000_0000_0000") != NULL, "no 0x8000_0000_0000_0000 in:\n%s", md.p);
    /* '_' beside punctuation could open emphasis: escaped */
    ck_assert_msg(strstr(md.p, "| =\\_x\\_= |") != NULL, "no '| =\\_x\\_= |' in:\n%s", md.p);
    buf_free(&md);
    done(&m);
}
END_TEST

Suite *map_suite(void)
{
    Suite *s = suite_create("map");
    TCase *t = tcase_create("render");
    tcase_add_loop_test(t, test_size_text, 0, (int)countof(sizes));
    tcase_add_test(t, test_escaping);
    tcase_add_test(t, test_html_holds_svg);
    tcase_add_test(t, test_deterministic);
    tcase_add_test(t, test_marked_parts);
    tcase_add_test(t, test_markdown);
    tcase_add_test(t, test_bar_windows);
    tcase_add_test(t, test_class_table);
    tcase_add_test(t, test_xml_nonchars);
    tcase_add_loop_test(t, test_cut_utf8, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
