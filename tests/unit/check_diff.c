/* SPDX-License-Identifier: MIT */
/* check_diff.c - diff.c: two resolved specs compared, each change
 * classified.
 *
 * Most cases edit one small spec (BASE) into OLD and NEW with textual
 * replacements and compare the changes through a compact dump: one token
 * per change, "B:" or "C:" (breaking, compatible), the kind, then
 * @segment, #bank id, /flag and =bar where the change names them, e.g.
 * "C:segment-added@extra B:segment-renumbered@vis". */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "segc.h"

static const char BASE[] = "segc: 1\n"
                           "board: { name: t, wddm: \"1.3\", arch: x64 }\n"
                           "bars:\n"
                           "  fb: { index: 0, size: 256MiB }\n"
                           "segments:\n"
                           "  - name: vis\n"
                           "    kind: memory\n"
                           "    base: 0\n"
                           "    size: 256MiB\n"
                           "    cpu_visible: { bar: fb, offset: 0 }\n"
                           "    flags: [direct_flip]\n"
                           "  - name: loc\n"
                           "    kind: memory\n"
                           "    base: 256MiB\n"
                           "    size: 768MiB\n"
                           "    banks:\n"
                           "      - { name: b1, size: 256MiB }\n"
                           "      - { name: b2, size: 256MiB }\n"
                           "      - { name: b3 }\n"
                           "  - name: ap\n"
                           "    kind: aperture\n"
                           "    base: 16GiB\n"
                           "    size: 1GiB\n"
                           "    commit_limit: 512MiB\n"
                           "paging: { segment: ap, buffer_size: 64KiB, private_data_size: 16 }\n";

enum { MAX_EDITS = 4 };

/* BASE with each edit's first string replaced (once) by its second; an
 * edit that does not apply fails the test, so a case cannot silently
 * compare BASE with itself. */
static char *edit(const char *const (*edits)[2])
{
    char *s = arena_strdup(A, BASE);
    for (unsigned i = 0; i < MAX_EDITS && edits[i][0]; i++) {
        char *at = strstr(s, edits[i][0]);
        ck_assert_msg(at != NULL, "edit %u: '%s' is not in the spec", i, edits[i][0]);
        size_t pre = (size_t)(at - s), from = strlen(edits[i][0]);
        s = arena_printf(A, "%.*s%s%s", (int)pre, s, edits[i][1], at + from);
    }
    return s;
}

/* A spec that must resolve and pass every rule (warnings allowed). */
static Spec *load(const char *name, const char *text)
{
    Diags d;
    diags_init(&d, A);
    Spec *s = spec_from_string(A, name, text, NULL, &d);
    RuleConfig rc;
    rules_default(&rc);
    if (s)
        spec_check(s, &rc, &d, NULL);
    if (!s || diags_failed(&d)) {
        diags_sort(&d);
        diags_print_text(stderr, &d, (DiagStyle){0});
        ck_abort_msg("%s is not a valid spec", name);
    }
    return s;
}

static const char *dump(const Diff *df)
{
    Buf b = {0};
    for (const Change *c = df->head; c; c = c->next) {
        buf_printf(&b, "%s%c:%s", c == df->head ? "" : " ", change_table[c->kind].cls == CHANGE_BREAKING ? 'B' : 'C',
                   change_table[c->kind].name);
        if (c->segment)
            buf_printf(&b, "@%s", c->segment);
        if (c->bank_id)
            buf_printf(&b, "#%u", c->bank_id);
        if (c->flag)
            buf_printf(&b, "/%s", c->flag);
        if (c->bar)
            buf_printf(&b, "=%s", c->bar);
    }
    const char *s = arena_strdup(A, b.p ? b.p : "");
    buf_free(&b);
    return s;
}

static Diff diff_of(const char *old_text, const char *new_text)
{
    Diff df;
    spec_diff(A, load("old.yaml", old_text), load("new.yaml", new_text), &df);
    return df;
}

typedef struct DiffCase {
    const char *name;
    const char *old_edits[MAX_EDITS][2]; /* BASE -> OLD */
    const char *new_edits[MAX_EDITS][2]; /* BASE -> NEW */
    const char *want;
} DiffCase;

static const char BANKS[] = "    banks:\n"
                            "      - { name: b1, size: 256MiB }\n"
                            "      - { name: b2, size: 256MiB }\n"
                            "      - { name: b3 }\n";

static const DiffCase cases[] = {
    /* No change: the same values, however written. */
    {"identical", {{0}}, {{0}}, ""},
    {"same value, other expression", {{0}}, {{"size: 768MiB", "size: 0x3000_0000"}, {"base: 0\n", "base: 0 * 4KiB\n"}}, ""},
    {"base written as the default", {{0}}, {{"    base: 256MiB\n", ""}}, ""},
    {"constant introduced", {{0}}, {{"bars:", "constants: { big: 1GiB }\nbars:"}, {"size: 1GiB", "size: big"}}, ""},
    {"AGP base and size are ignored",
     {{"    commit_limit: 512MiB\n", "    commit_limit: 512MiB\n  - { name: agp, kind: agp }\n"}},
     {{"    commit_limit: 512MiB\n", "    commit_limit: 512MiB\n  - { name: agp, kind: agp, base: 0xE000_0000, size: 64MiB }\n"}},
     ""},

    /* Segments. */
    {"segment appended", {{0}}, {{"paging:", "  - { name: extra, kind: aperture, base: 32GiB, size: 64MiB }\npaging:"}},
     "C:segment-added@extra"},
    {"segment inserted first", {{0}},
     {{"segments:\n", "segments:\n  - { name: extra, kind: aperture, base: 32GiB, size: 64MiB }\n"}},
     "C:segment-added@extra B:segment-renumbered@vis B:segment-renumbered@loc B:segment-renumbered@ap"},
    {"segment removed, paging moves", {{0}},
     {{"  - name: ap\n    kind: aperture\n    base: 16GiB\n    size: 1GiB\n    commit_limit: 512MiB\n", ""},
      {"segment: ap", "segment: none"}},
     "B:segment-removed@ap B:paging-segment-changed"},
    {"segment renamed", {{0}}, {{"name: ap", "name: gart"}, {"segment: ap", "segment: gart"}},
     "B:segment-removed@ap C:segment-added@gart B:paging-segment-changed"},
    {"kind changed", {{0}}, {{"    kind: memory\n    base: 0\n", "    kind: aperture\n    base: 0\n"}}, "B:kind-changed@vis"},
    {"base moved", {{0}}, {{"base: 16GiB", "base: 32GiB"}}, "B:base-moved@ap"},
    {"size grown at the end", {{0}}, {{"size: 1GiB", "size: 2GiB"}}, "C:size-grown@ap"},
    {"size shrunk", {{0}}, {{"size: 1GiB", "size: 512MiB"}}, "B:size-shrunk@ap"},
    {"growth pushes the next segment", {{"    base: 256MiB\n", ""}},
     {{"    base: 256MiB\n", ""}, {"size: 256MiB }", "size: 512MiB }"}, {"size: 256MiB\n    cpu", "size: 512MiB\n    cpu"}},
     "C:bar-size-grown=fb C:size-grown@vis B:base-moved@loc"},
    {"commit limit", {{0}}, {{"commit_limit: 512MiB", "commit_limit: 256MiB"}}, "C:commit-limit-changed@ap"},
    {"commit limit that follows the size", {{"    commit_limit: 512MiB\n", ""}},
     {{"    commit_limit: 512MiB\n", ""}, {"size: 1GiB", "size: 2GiB"}}, "C:size-grown@ap"},
    {"commit limit up to the size", {{0}}, {{"    commit_limit: 512MiB\n", ""}}, "C:commit-limit-changed@ap"},
    {"system_memory_end",
     {{"flags: [direct_flip]", "flags: [preserved_during_standby, partially_preserved_during_hibernate]\n    system_memory_end: 128MiB - 1"}},
     {{"flags: [direct_flip]", "flags: [preserved_during_standby, partially_preserved_during_hibernate]\n    system_memory_end: 64MiB - 1"}},
     "B:system-memory-end-changed@vis"},

    /* Flags: behaviour bits break, budget bits do not, derived bits are
     * reported through what they derive from. */
    {"preservation flag gained", {{0}}, {{"flags: [direct_flip]", "flags: [direct_flip, preserved_during_standby]"}},
     "B:flag-behaviour-changed@vis/PreservedDuringStandby"},
    {"direct_flip lost", {{0}}, {{"    flags: [direct_flip]\n", ""}}, "B:flag-behaviour-changed@vis/DirectFlip"},
    {"cache_coherent gained", {{0}}, {{"commit_limit: 512MiB", "commit_limit: 512MiB\n    flags: [cache_coherent]"}},
     "B:flag-behaviour-changed@ap/CacheCoherent"},
    {"populated_from_system_memory gained", {{0}}, {{"size: 768MiB", "size: 768MiB\n    flags: [populated_from_system_memory]"}},
     "B:flag-behaviour-changed@loc/PopulatedFromSystemMemory"},
    {"cpu visibility lost", {{0}}, {{"    cpu_visible: { bar: fb, offset: 0 }\n", ""}},
     "B:cpu-window-removed@vis/CpuVisible"},
    {"cpu visibility gained", {{"    cpu_visible: { bar: fb, offset: 0 }\n", ""}}, {{0}},
     "B:cpu-window-added@vis/CpuVisible"},
    /* WDDM 2.x: QUERYSEGMENT4 cannot describe banks, so these drop them. */
    {"budget bits", {{"wddm: \"1.3\"", "wddm: \"2.0\""}, {BANKS, ""}},
     {{"wddm: \"1.3\"", "wddm: \"2.0\""}, {BANKS, ""}, {"size: 768MiB", "size: 768MiB\n    flags: [local_budget_group]"}},
     "C:flags-changed@loc/LocalBudgetGroup"},
    {"budget and behaviour bits together", {{"wddm: \"1.3\"", "wddm: \"2.0\""}, {BANKS, ""}},
     {{"wddm: \"1.3\"", "wddm: \"2.0\""}, {BANKS, ""}, {"flags: [direct_flip]", "flags: [application_target, use_64kb_pages]"}},
     "B:flag-behaviour-changed@vis/DirectFlip B:flag-behaviour-changed@vis/Use64KBPages C:flags-changed@vis/ApplicationTarget"},
    {"a QUERYSEGMENT4 field", {{"wddm: \"1.3\"", "wddm: \"2.0\""}, {BANKS, ""}},
     {{"wddm: \"1.3\"", "wddm: \"2.0\""}, {BANKS, ""}, {"size: 768MiB", "size: 768MiB\n    invalid_memory_ranges: 2"}},
     "B:qs4-field-changed@loc"},
    {"banks dropped: UseBanking is not a flag change", {{0}}, {{BANKS, ""}},
     "B:bank-removed@loc#1 B:bank-removed@loc#2 B:bank-removed@loc#3"},

    /* CPU windows. */
    {"cpu window offset", {{0}}, {{"size: 256MiB }", "size: 512MiB }"}, {"offset: 0", "offset: 256MiB"}},
     "C:bar-size-grown=fb B:cpu-window-moved@vis"},
    {"cpu window to a fixed address", {{0}}, {{"{ bar: fb, offset: 0 }", "{ address: 0xD000_0000 }"}},
     "B:cpu-window-moved@vis"},
    {"same window, bar offset written", {{0}}, {{"{ bar: fb, offset: 0 }", "{ bar: fb }"}}, ""},

    /* Banks, by id. */
    {"bank boundary", {{0}}, {{"{ name: b1, size: 256MiB }", "{ name: b1, size: 128MiB }"}},
     "B:bank-boundary-moved@loc#1 B:bank-boundary-moved@loc#2"},
    {"bank sizes swapped, same boundary count", {{0}},
     {{"{ name: b1, size: 256MiB }", "{ name: b1, size: 128MiB }"}, {"{ name: b2, size: 256MiB }", "{ name: b2, size: 384MiB }"}},
     "B:bank-boundary-moved@loc#1"},
    {"bank added at the end", {{0}}, {{"{ name: b3 }", "{ name: b3, size: 128MiB }\n      - { name: b4 }"}},
     "B:bank-added@loc#4"},
    {"bank removed in the middle", {{0}}, {{"      - { name: b2, size: 256MiB }\n", ""}},
     "C:bank-renamed@loc#2 B:bank-removed@loc#3"},
    {"bank renamed", {{0}}, {{"name: b1", "name: near"}}, "C:bank-renamed@loc#1"},
    {"last bank grows with the segment", {{0}}, {{"size: 768MiB", "size: 1792MiB"}}, "C:size-grown@loc"},
    {"banks appear", {{BANKS, ""}}, {{0}}, "B:bank-added@loc#1 B:bank-added@loc#2 B:bank-added@loc#3"},

    /* Board, BARs, paging. */
    {"board renamed", {{0}}, {{"name: t,", "name: t2,"}}, "B:board-renamed"},
    {"wddm", {{0}}, {{"wddm: \"1.3\"", "wddm: \"1.2\""}}, "B:wddm-changed"},
    {"arch and page size", {{0}}, {{"arch: x64 }", "arch: arm64, page_size: 64KiB }"}},
     "B:arch-changed B:page-size-changed"},
    {"bar added before", {{0}}, {{"bars:\n", "bars:\n  mmio: { index: 2, size: 16MiB }\n"}},
     "B:bar-added=mmio C:bar-renumbered=fb"},
    {"bar index", {{0}}, {{"index: 0", "index: 4"}}, "B:bar-index-changed=fb B:cpu-window-moved@vis"},
    {"bar shrunk", {{"size: 256MiB }", "size: 512MiB }"}}, {{0}}, "B:bar-size-shrunk=fb"},
    {"bar removed", {{"bars:\n", "bars:\n  regs: { index: 2, size: 16MiB }\n"}}, {{0}}, "B:bar-removed=regs C:bar-renumbered=fb"},
    {"paging buffer grown", {{0}}, {{"buffer_size: 64KiB", "buffer_size: 128KiB"}}, "C:paging-size-grown"},
    {"paging buffer shrunk", {{0}}, {{"buffer_size: 64KiB", "buffer_size: 16KiB"}}, "B:paging-size-shrunk"},
    {"paging private data", {{0}}, {{"private_data_size: 16", "private_data_size: 8"}}, "B:paging-private-data-changed"},
};

START_TEST(test_case)
{
    const DiffCase *c = &cases[_i];
    Diff df = diff_of(edit(c->old_edits), edit(c->new_edits));
    ck_assert_msg(!strcmp(dump(&df), c->want), "%s: got '%s', expected '%s'", c->name, dump(&df), c->want);
    unsigned b = 0, k = 0, n = 0;
    for (const Change *ch = df.head; ch; ch = ch->next) {
        n++;
        b += change_table[ch->kind].cls == CHANGE_BREAKING;
        k += change_table[ch->kind].cls == CHANGE_COMPATIBLE;
        ck_assert(ch->from.present || ch->to.present);
    }
    ck_assert_uint_eq(df.count, n);
    ck_assert_uint_eq(df.nbreaking, b);
    ck_assert_uint_eq(b + k, n); /* the others are compatible */
}
END_TEST

/* Positions: NEW's, or OLD's for what NEW no longer has; each side its own. */
START_TEST(test_positions)
{
    const char *const moved[MAX_EDITS][2] = {{"base: 16GiB", "base: 32GiB"}};
    Diff df = diff_of(BASE, edit(moved));
    const Change *c = df.head;
    ck_assert_ptr_nonnull(c);
    ck_assert_str_eq(c->pos.file->name, "new.yaml");
    ck_assert_uint_eq(src_loc(c->pos).line, 22);
    ck_assert_uint_eq(src_loc(c->pos).col, 11);
    ck_assert_str_eq(c->from.pos.file->name, "old.yaml");
    ck_assert_uint_eq(src_loc(c->from.pos).line, 22);

    const char *const removed[MAX_EDITS][2] = {{"paging:", "  - { name: x, kind: aperture, base: 32GiB, size: 4KiB }\npaging:"}};
    df = diff_of(edit(removed), BASE);
    c = df.head;
    ck_assert_str_eq(dump(&df), "B:segment-removed@x");
    ck_assert(!c->to.present);
    ck_assert_str_eq(c->pos.file->name, "old.yaml");
    ck_assert_uint_eq(src_loc(c->pos).line, 25);
    ck_assert_uint_eq(src_loc(c->pos).col, 13);

    /* A flag lost points at NEW's flags list; one gained at the flag. */
    const char *const flags[MAX_EDITS][2] = {{"flags: [direct_flip]", "flags: [pitch_alignment]"}};
    df = diff_of(BASE, edit(flags));
    ck_assert_str_eq(dump(&df), "B:flag-behaviour-changed@vis/PitchAlignment B:flag-behaviour-changed@vis/DirectFlip");
    ck_assert_uint_eq(src_loc(df.head->pos).line, 11);
    ck_assert_uint_eq(src_loc(df.head->pos).col, 13);
    ck_assert_uint_eq(src_loc(df.head->next->pos).col, 12);
    ck_assert_uint_eq(src_loc(df.head->next->from.pos).col, 13);

    /* A defaulted value points at its segment's name. */
    const char *const dflt[MAX_EDITS][2] = {{"    base: 256MiB\n", ""}, {"size: 256MiB\n    cpu", "size: 128MiB\n    cpu"}};
    df = diff_of(BASE, edit(dflt));
    ck_assert_str_eq(dump(&df), "B:size-shrunk@vis B:base-moved@loc");
    c = df.head->next;
    ck_assert_uint_eq(src_loc(c->pos).line, 12);
    ck_assert_uint_eq(src_loc(c->pos).col, 11);
}
END_TEST

/* Values: as numbers, and as text in check's one format, qty() and iec():
 * a byte count in hex with its IEC size, a change of one by its IEC size. */
START_TEST(test_values)
{
    const char *const grown[MAX_EDITS][2] = {{"size: 1GiB", "size: 1536MiB"}};
    Diff df = diff_of(BASE, edit(grown));
    const Change *c = df.head;
    ck_assert(c->from.numeric && c->to.numeric);
    ck_assert_str_eq(c->from.text, "0x40000000 (1 GiB)");
    ck_assert_str_eq(c->to.text, "0x60000000 (1.50 GiB)");
    ck_assert_str_eq(c->from.text, qty(A, 1u << 30));
    ck_assert_str_eq(c->to.text, qty(A, 1536u << 20));
    ck_assert_uint_eq(c->from.v, 1u << 30);
    ck_assert_uint_eq(c->to.v, 1536u << 20);
    ck_assert_str_eq(c->msg, "segment 'ap' size 0x40000000 (1 GiB) -> 0x60000000 (1.50 GiB), +512 MiB");
    ck_assert_str_eq(c->msg, arena_printf(A, "segment 'ap' size %s -> %s, +%s", qty(A, 1u << 30), qty(A, 1536u << 20),
                                          iec(A, 512u << 20)));
    const char *const shrunk[MAX_EDITS][2] = {{"size: 1GiB", "size: 1000MiB"}};
    df = diff_of(BASE, edit(shrunk));
    ck_assert_str_eq(df.head->msg, "segment 'ap' size 0x40000000 (1 GiB) -> 0x3E800000 (1000 MiB), -24 MiB");

    const char *const sme_old[MAX_EDITS][2] = {
        {"flags: [direct_flip]", "flags: [preserved_during_standby, partially_preserved_during_hibernate]\n    system_memory_end: 4KiB - 1"}};
    const char *const sme_new[MAX_EDITS][2] = {
        {"flags: [direct_flip]", "flags: [preserved_during_standby, partially_preserved_during_hibernate]\n    system_memory_end: 128MiB - 1"}};
    df = diff_of(edit(sme_old), edit(sme_new));
    ck_assert_str_eq(df.head->from.text, "0xFFF (≈4.00 KiB)");
    ck_assert_str_eq(df.head->to.text, "0x7FFFFFF (≈128.00 MiB)");
    ck_assert_uint_eq(df.head->to.v, (128u << 20) - 1);

    const char *const rm[MAX_EDITS][2] = {{"      - { name: b2, size: 256MiB }\n", ""}};
    df = diff_of(BASE, edit(rm));
    c = df.head->next;
    ck_assert_str_eq(c->bank, "b3");
    ck_assert_uint_eq(c->bank_id, 3);
    ck_assert_str_eq(c->from.text, "[0x20000000, 0x30000000), 256 MiB");
    ck_assert(!c->from.numeric);
    ck_assert_str_eq(c->msg, "segment 'loc' bank 3 'b3' removed (was [0x20000000, 0x30000000), 256 MiB)");
    ck_assert_str_eq(df.head->msg, "segment 'loc' bank 2 name b2 -> b3");

    const char *const win[MAX_EDITS][2] = {{"{ bar: fb, offset: 0 }", "{ address: 0xD000_0000 }"}};
    df = diff_of(BASE, edit(win));
    ck_assert_str_eq(df.head->msg, "segment 'vis' cpu_visible BAR0+0 -> 0xD0000000 (3.25 GiB)");

    const char *const pd[MAX_EDITS][2] = {{"private_data_size: 16", "private_data_size: 4096"}};
    df = diff_of(BASE, edit(pd));
    ck_assert_str_eq(df.head->msg, "paging private_data_size 16 -> 0x1000 (4 KiB), +≈3.98 KiB");
    const char *const pd0[MAX_EDITS][2] = {{"private_data_size: 16", "private_data_size: 0"}};
    df = diff_of(BASE, edit(pd0));
    ck_assert_str_eq(df.head->msg, "paging private_data_size 16 -> 0, -16 B");
}
END_TEST

START_TEST(test_text_output)
{
    const char *const e[MAX_EDITS][2] = {{"size: 1GiB", "size: 2GiB"}, {"base: 16GiB", "base: 1TiB"}};
    Diff df = diff_of(BASE, edit(e));
    Buf b = {0};
    diff_print_text(&b, &df);
    ck_assert_str_eq(b.p, "breaking: new.yaml:22:11: [base-moved] segment 'ap' base 0x400000000 (16 GiB) -> "
                          "0x10000000000 (1 TiB), +1008 GiB\n"
                          "compatible: new.yaml:23:11: [size-grown] segment 'ap' size 0x40000000 (1 GiB) -> "
                          "0x80000000 (2 GiB), +1 GiB\n"
                          "2 changes: 1 breaking, 1 compatible\n");
    buf_free(&b);

    const char *const one[MAX_EDITS][2] = {{"name: t,", "name: t2,"}};
    df = diff_of(BASE, edit(one));
    diff_print_text(&b, &df);
    ck_assert_str_eq(b.p, "breaking: new.yaml:2:16: [board-renamed] board name t -> t2\n"
                          "1 change: 1 breaking, 0 compatible\n");
    buf_free(&b);

    df = diff_of(BASE, BASE);
    diff_print_text(&b, &df);
    ck_assert_str_eq(b.p, "no change\n");
    buf_free(&b);
}
END_TEST

START_TEST(test_json_output)
{
    Diff df = diff_of(BASE, BASE);
    Buf b = {0};
    diff_print_json(&b, &df, "a.yaml", "b.yaml");
    /* The shared JSON writer (json.c) lays out one key per line. */
    ck_assert_msg(strstr(b.p, "\"segc_diff\": 2,\n") && strstr(b.p, "\"old\": \"a.yaml\",\n") &&
                      strstr(b.p, "\"new\": \"b.yaml\",\n") && strstr(b.p, "\"changes\": [],\n") &&
                      strstr(b.p, "\"breaking\": 0,\n") && strstr(b.p, "\"compatible\": 0\n}\n"),
                  "%s", b.p);
    buf_free(&b);

    /* Names are escaped: quotes, backslashes, control characters (DEL
     * included); bytes that are not UTF-8 become U+FFFD, valid UTF-8 passes
     * through. */
    Diags d;
    diags_init(&d, A);
    const char *weird = "q\"b\\n\nt\t\x01\x7f\xff\xc3\xa9\xe0\x80\x80.yaml";
    const char *const e[MAX_EDITS][2] = {{"      - { name: b3 }\n", ""}, {"{ name: b2, size: 256MiB }", "{ name: b2 }"}};
    Spec *o = spec_from_string(A, weird, BASE, NULL, &d);
    Spec *n = spec_from_string(A, "n.yaml", edit(e), NULL, &d);
    ck_assert(o && n && !diags_failed(&d));
    spec_diff(A, o, n, &df);
    diff_print_json(&b, &df, weird, "-");
    const char *want_name = "\"q\\\"b\\\\n\\nt\\t\\u0001\\u007f\\ufffd\xc3\xa9\\ufffd\\ufffd\\ufffd.yaml\"";
    const char *want[] = {
        arena_printf(A, "\"old\": %s,\n", want_name), "\"new\": \"-\",\n", "\"class\": \"breaking\",\n",
        "\"kind\": \"bank-removed\",\n", arena_printf(A, "\"file\": %s,\n", want_name), "\"line\": 19,\n",
        "\"column\": 17,\n", "\"segment\": \"loc\",\n", "\"bank\": \"b3\",\n", "\"bank_id\": 3,\n", "\"bar\": null,\n",
        "\"flag\": null,\n", "\"message\": \"segment 'loc' bank 3 'b3' removed (was [0x20000000, 0x30000000), 256 MiB)\",\n",
        "\"text\": \"[0x20000000, 0x30000000), 256 MiB\",\n", "\"new\": null,\n", "\"notes\": []\n", "\"breaking\": 1,\n", "\"compatible\": 0\n}\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(b.p, want[i]) != NULL, "missing %s in:\n%s", want[i], b.p);
    buf_free(&b);

    /* Numbers above 2^53 are written exactly: every value is a hex string. */
    const char *const bo[MAX_EDITS][2] = {{"size: 1GiB", "size: 4KiB"}, {"    commit_limit: 512MiB\n", ""},
                                          {"buffer_size: 64KiB", "buffer_size: 4KiB"}};
    const char *const bn[MAX_EDITS][2] = {{"base: 16GiB", "base: 0x7fff_ffff_ffff_f000"}, {"size: 1GiB", "size: 4KiB"},
                                          {"    commit_limit: 512MiB\n", ""}, {"buffer_size: 64KiB", "buffer_size: 4KiB"}};
    df = diff_of(edit(bo), edit(bn));
    diff_print_json(&b, &df, "o", "n");
    ck_assert_msg(strstr(b.p, "\"text\": \"0x7FFFFFFFFFFFF000 (≈8.00 EiB)\",\n") && strstr(b.p, "\"value\": \"0x7FFFFFFFFFFFF000\",\n"),
                  "%s", b.p);
    buf_free(&b);
}
END_TEST

/* The kind named `name`; the test fails for an unknown name. */
static int kind_named(const char *name)
{
    for (int i = 0; i < CHANGE_KIND_COUNT; i++)
        if (!strcmp(change_table[i].name, name))
            return i;
    ck_abort_msg("no change kind '%s'", name);
    return 0;
}

START_TEST(test_table)
{
    for (int i = 0; i < CHANGE_KIND_COUNT; i++) {
        const char *nm = change_table[i].name;
        for (int j = 0; j < i; j++) /* names are unique */
            ck_assert_str_ne(change_table[j].name, nm);
        for (const char *p = nm; *p; p++)
            ck_assert_msg((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-', "%s is not kebab-case", nm);
        ck_assert_msg(strlen(change_table[i].why) > 20, "%s has no reason", nm);
    }
    ck_assert_str_eq(change_class_name(CHANGE_BREAKING), "breaking");
    ck_assert_str_eq(change_class_name(CHANGE_COMPATIBLE), "compatible");
    /* The classification the README documents, for the kinds the issue
     * names. */
    static const char *const breaking[] = {"segment-renumbered", "segment-removed", "bank-boundary-moved", "bank-added",
                                           "bank-removed", "paging-segment-changed", "kind-changed",
                                           "flag-behaviour-changed", "base-moved", "size-shrunk"};
    static const char *const compatible[] = {"size-grown", "commit-limit-changed", "paging-size-grown", "segment-added",
                                             "flags-changed", "bank-renamed"};
    for (size_t i = 0; i < countof(breaking); i++)
        ck_assert_msg(change_table[kind_named(breaking[i])].cls == CHANGE_BREAKING, "%s", breaking[i]);
    for (size_t i = 0; i < countof(compatible); i++)
        ck_assert_msg(change_table[kind_named(compatible[i])].cls == CHANGE_COMPATIBLE, "%s", compatible[i]);
}
END_TEST

/* Specs with every kind of difference at once are still compared in the
 * documented order: board, BARs, removed segments, segments, paging. */
START_TEST(test_order)
{
    const char *const e[MAX_EDITS][2] = {{"name: t,", "name: u,"},
                                         {"  - name: vis\n", "  - name: x\n    kind: aperture\n    base: 64GiB\n    size: 4KiB\n  - name: vis\n"},
                                         {"buffer_size: 64KiB", "buffer_size: 128KiB"},
                                         {"bars:\n", "bars:\n  regs: { index: 3, size: 4KiB }\n"}};
    const char *const o[MAX_EDITS][2] = {{"    commit_limit: 512MiB\n", "    commit_limit: 512MiB\n  - { name: gone, kind: aperture, base: 128GiB, size: 4KiB }\n"}};
    Diff df = diff_of(edit(o), edit(e));
    ck_assert_str_eq(dump(&df), "B:board-renamed B:bar-added=regs C:bar-renumbered=fb B:segment-removed@gone "
                                "C:segment-added@x B:segment-renumbered@vis B:segment-renumbered@loc "
                                "B:segment-renumbered@ap C:paging-size-grown");
}
END_TEST

/* Each change with its cause, "kind@segment<cause" (no '<' for a value
 * the spec edited itself), and a constant-changed's notes as "+N". */
static const char *causes(const Diff *df)
{
    Buf b = {0};
    for (const Change *c = df->head; c; c = c->next) {
        unsigned n = 0;
        for (const Note *nt = c->notes; nt; nt = nt->next)
            n++;
        buf_printf(&b, "%s%s@%s", c == df->head ? "" : "; ", change_table[c->kind].name, c->segment ? c->segment : "");
        if (c->cause)
            buf_printf(&b, "<%s", c->cause);
        if (n)
            buf_printf(&b, "+%u", n);
    }
    const char *s = arena_strdup(A, b.p ? b.p : "");
    buf_free(&b);
    return s;
}

START_TEST(test_causes)
{
    /* A bank that shrinks moves the next bank's end; a segment whose base
     * reads another's end moves with it; a segment whose base is left out
     * follows the one before it. */
    const char *const k[MAX_EDITS][2] = {{"{ name: b1, size: 256MiB }", "{ name: b1, size: 128MiB }"},
                                         {"base: 256MiB", "base: vis.end"}, {"    base: 16GiB\n", ""}};
    const char *const k2[MAX_EDITS][2] = {{"{ name: b1, size: 256MiB }", "{ name: b1, size: 128MiB }"},
                                          {"base: 256MiB", "base: vis.end"}, {"    base: 16GiB\n", ""},
                                          {"size: 256MiB\n    cpu", "size: 128MiB\n    cpu"}};
    const char *const k1[MAX_EDITS][2] = {{"base: 256MiB", "base: vis.end"}, {"    base: 16GiB\n", ""}};
    Diff df = diff_of(edit(k1), edit(k));
    ck_assert_str_eq(causes(&df), "bank-boundary-moved@loc; bank-boundary-moved@loc<bank 'b1' shrank");
    df = diff_of(edit(k1), edit(k2));
    ck_assert_str_eq(causes(&df), "size-shrunk@vis; base-moved@loc<segment 'vis' shrank; "
                                  "bank-boundary-moved@loc; bank-boundary-moved@loc<bank 'b1' shrank; "
                                  "base-moved@ap<segment 'loc' moved");

    /* A constant: reported at its definition, its uses as notes, each use
     * "because constant ... changed"; one constant through another too. */
    const char *const co[MAX_EDITS][2] = {{"bars:\n", "constants: { v: 768MiB, w: v / 2 }\nbars:\n"},
                                          {"size: 768MiB", "size: v"}, {"commit_limit: 512MiB", "commit_limit: w"}};
    const char *const cn[MAX_EDITS][2] = {{"bars:\n", "constants: { v: 1GiB, w: v / 2 }\nbars:\n"},
                                          {"size: 768MiB", "size: v"}, {"commit_limit: 512MiB", "commit_limit: w"}};
    df = diff_of(edit(co), edit(cn));
    ck_assert_str_eq(causes(&df), "constant-changed@+2; constant-changed@<constant 'v' changed+1; "
                                  "size-grown@loc<constant 'v' changed; "
                                  "commit-limit-changed@ap<constant 'w' changed");
    ck_assert_str_eq(df.head->notes->msg, "uses it: constant 'w' 0x18000000 (384 MiB) -> 0x20000000 (512 MiB)");
    ck_assert_uint_eq(src_loc(df.head->notes->next->pos).line, 16); /* loc: size: v */

    /* Renumbering names what moved the segment. */
    const char *const r[MAX_EDITS][2] = {{"  - name: ap\n", "  - { name: x, kind: aperture, base: 64GiB, size: 4KiB }\n  - name: ap\n"}};
    df = diff_of(BASE, edit(r));
    ck_assert_str_eq(causes(&df), "segment-added@x; segment-renumbered@ap<segment 'x' was added before it");
    df = diff_of(edit(r), BASE);
    ck_assert_str_eq(causes(&df), "segment-removed@x; segment-renumbered@ap<segment 'x' was removed before it");

    /* An edited value has no cause, even when it reads a name that changed too. */
    const char *const e[MAX_EDITS][2] = {{"size: 768MiB", "size: 1GiB"}, {"base: 16GiB", "base: 16GiB + loc.size"}};
    df = diff_of(BASE, edit(e));
    ck_assert_str_eq(causes(&df), "size-grown@loc; base-moved@ap");
}
END_TEST

Suite *diff_suite(void)
{
    Suite *s = suite_create("diff");
    TCase *t = fixture_tcase("pairs");
    tcase_add_loop_test(t, test_case, 0, (int)countof(cases));
    tcase_add_test(t, test_positions);
    tcase_add_test(t, test_values);
    tcase_add_test(t, test_text_output);
    tcase_add_test(t, test_json_output);
    tcase_add_test(t, test_causes);
    tcase_add_test(t, test_table);
    tcase_add_test(t, test_order);
    suite_add_tcase(s, t);
    return s;
}
