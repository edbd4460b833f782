/* SPDX-License-Identifier: MIT */
/* expect.h - reads tests/gen/expect/<board>.txt, the descriptor values
 * computed by hand (or, for random boards, by the generator that wrote the
 * spec), never by segc.  Shared by the handler and lookup harnesses. */
#ifndef SEGC_TEST_EXPECT_H
#define SEGC_TEST_EXPECT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXSEG = 32, MAXBANK = 128 };

typedef struct ExpSeg {
    int agp;
    unsigned flags;
    unsigned long long base, size, commit, sysend, cpu_value;
    int cpu_bar; /* -1: none or address */
    int cpu_addr;
    unsigned nbanks;
    unsigned long long banks[MAXBANK];
    /* DESCRIPTOR4 only ("seg4" lines; zero when absent). */
    unsigned invalid_ranges, uefi_ranges, vpr_align, vpr_count, vpr_reserve, host_pages;
    unsigned long long vpr_start, vpr_size, host_value;
    int host; /* 0 none, 1 BAR (host_value includes the base), 2 address */
} ExpSeg;

static struct {
    char board[64];
    unsigned wddm, count_max, count_no_agp, paging_id, paging_size, paging_priv;
    unsigned nsegs;
    ExpSeg seg[MAXSEG];
} E;


/* BAR bases the test "driver" got from its resource list. */
static inline unsigned long long bar_base(unsigned slot)
{
    return 0x0000400000000000ull + (unsigned long long)slot * 0x100000000ull;
}

static inline void load_expect(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char word[32];
        if (sscanf(line, "%31s", word) != 1)
            continue;
        if (!strcmp(word, "board")) {
            sscanf(line, "board %63s", E.board);
        } else if (!strcmp(word, "wddm")) {
            sscanf(line, "wddm %x", &E.wddm);
        } else if (!strcmp(word, "count")) {
            sscanf(line, "count %u %u", &E.count_max, &E.count_no_agp);
        } else if (!strcmp(word, "paging")) {
            sscanf(line, "paging %u %u %u", &E.paging_id, &E.paging_size, &E.paging_priv);
        } else if (!strcmp(word, "seg4")) {
            /* seg4 ID INVALID UEFI VPRSTART VPRSIZE VPRALIGN VPRCOUNT VPRRESERVE HOST
             * HOST: none | bar:SLOT+0xOFF/PAGES | addr:0xADDR/PAGES */
            unsigned id;
            char host[64];
            ExpSeg *s;
            if (sscanf(line, "seg4 %u", &id) != 1 || id == 0 || id > MAXSEG) {
                fprintf(stderr, "%s: bad line: %s", path, line);
                exit(2);
            }
            s = &E.seg[id - 1];
            if (sscanf(line, "seg4 %*u %u %u %llx %llx %x %u %x %63s", &s->invalid_ranges, &s->uefi_ranges,
                       &s->vpr_start, &s->vpr_size, &s->vpr_align, &s->vpr_count, &s->vpr_reserve, host) != 8) {
                fprintf(stderr, "%s: bad seg4 line: %s", path, line);
                exit(2);
            }
            unsigned slot;
            unsigned long long v;
            if (sscanf(host, "bar:%u+%llx/%u", &slot, &v, &s->host_pages) == 3) {
                s->host = 1;
                s->host_value = bar_base(slot) + v;
            } else if (sscanf(host, "addr:%llx/%u", &v, &s->host_pages) == 2) {
                s->host = 2;
                s->host_value = v;
            }
        } else if (!strcmp(word, "seg")) {
            unsigned id;
            int n;
            char rest[16];
            if (sscanf(line, "seg %u %n", &id, &n) != 1 || id == 0 || id > MAXSEG) {
                fprintf(stderr, "%s: bad line: %s", path, line);
                exit(2);
            }
            ExpSeg *s = &E.seg[id - 1];
            if (id > E.nsegs)
                E.nsegs = id;
            if (sscanf(line + n, "%15s", rest) == 1 && !strcmp(rest, "agp")) {
                s->agp = 1;
                continue;
            }
            char cpu[64];
            int m;
            if (sscanf(line + n, "%x %llx %63s %llx %llx %llx %n", &s->flags, &s->base, cpu, &s->size, &s->commit,
                       &s->sysend, &m) != 6) {
                fprintf(stderr, "%s: bad seg line: %s", path, line);
                exit(2);
            }
            s->cpu_bar = -1;
            unsigned slot;
            unsigned long long v;
            if (sscanf(cpu, "bar:%u+%llx", &slot, &v) == 2) {
                s->cpu_bar = (int)slot;
                s->cpu_value = bar_base(slot) + v;
            } else if (sscanf(cpu, "addr:%llx", &v) == 1) {
                s->cpu_addr = 1;
                s->cpu_value = v;
            }
            char *p = line + n + m;
            while (s->nbanks < MAXBANK && sscanf(p, "%llx%n", &s->banks[s->nbanks], &m) == 1) {
                s->nbanks++;
                p += m;
            }
        }
    }
    fclose(f);
}

#endif
