/* SPDX-License-Identifier: MIT */
/* examples/driver/fill_bar_base.c against one board, and the handlers'
 * SEGC_ASSERT on unfilled BarBase slots:
 *   - a translated resource list with one memory resource per BAR register
 *     the board names (64-bit BARs taking two), an interrupt and unnamed
 *     32-bit BARs in between, fills every slot with its own BAR's base;
 *   - the handlers' second call with that runtime asserts nothing; with a
 *     zeroed runtime it asserts once per segment read through a BAR, which
 *     must happen exactly when argv[1] is 1 (tests/gen/expect says whether
 *     a segment is CPU-visible through a BAR);
 *   - a board without BARs answers with a NULL runtime.
 * Built with -DSEGC_GENERIC_NAMES -DSEGC_HEADER="..." and the generated .c
 * compiled with -include tests/gen/assert_hook.h. */
#include SEGC_HEADER

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Host stand-ins for the WDK's resource list types (documented fields
 * only; a driver gets the real ones from <ntddk.h>). */
enum { CmResourceTypeInterrupt = 2, CmResourceTypeMemory = 3, CmResourceTypeMemoryLarge = 7 };
typedef struct {
    BYTE Type, ShareDisposition;
    unsigned short Flags;
    union {
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length;
        } Memory;
    } u;
} CM_PARTIAL_RESOURCE_DESCRIPTOR;
typedef struct {
    unsigned short Version, Revision;
    ULONG Count;
    CM_PARTIAL_RESOURCE_DESCRIPTOR PartialDescriptors[16];
} CM_PARTIAL_RESOURCE_LIST;
typedef struct {
    ULONG InterfaceType, BusNumber;
    CM_PARTIAL_RESOURCE_LIST PartialResourceList;
} CM_FULL_RESOURCE_DESCRIPTOR;
typedef struct {
    ULONG Count;
    CM_FULL_RESOURCE_DESCRIPTOR List[1];
} CM_RESOURCE_LIST;

#include "../../examples/driver/fill_bar_base.c"

static unsigned asserts;
void segc_assert_failed(const char *what)
{
    (void)what;
    asserts++;
}

static int failures;
#define EXPECT(c, ...)                                                                                                 \
    do {                                                                                                               \
        if (!(c)) {                                                                                                    \
            printf("check_bars: " __VA_ARGS__);                                                                       \
            printf("\n");                                                                                              \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static ULONGLONG base_of(UINT reg) { return 0x4000000000ull + (ULONGLONG)reg * 0x100000000ull; }

/* Second call of the dispatcher (QUERYSEGMENT3, 3, or 4 by what the board answers). */
static NTSTATUS second_call(const SEGC_RUNTIME *rt)
{
    static BYTE desc[64 * 256];
    static DXGK_QUERYSEGMENTIN in;
    DXGKARG_QUERYADAPTERINFO arg;
    memset(&arg, 0, sizeof arg);
    memset(&in, 0, sizeof in);
    in.AgpApertureSize.QuadPart = 0x1000000;
    arg.pInputData = &in;
    arg.InputDataSize = sizeof in;
#if SEGC_HAS_QS4
    DXGK_QUERYSEGMENTOUT4 out4;
    memset(&out4, 0, sizeof out4);
    out4.NbSegment = SEGC_SEGMENT_COUNT;
    out4.pSegmentDescriptor = desc;
    out4.SegmentDescriptorStride = sizeof(DXGK_SEGMENTDESCRIPTOR4);
    arg.Type = DXGKQAITYPE_QUERYSEGMENT4;
    arg.pOutputData = &out4;
    arg.OutputDataSize = sizeof out4;
#elif SEGC_HAS_QS3
    DXGK_QUERYSEGMENTOUT3 out3;
    memset(&out3, 0, sizeof out3);
    out3.NbSegment = SEGC_SEGMENT_COUNT;
    out3.pSegmentDescriptor = (DXGK_SEGMENTDESCRIPTOR3 *)(void *)desc;
    arg.Type = DXGKQAITYPE_QUERYSEGMENT3;
    arg.pOutputData = &out3;
    arg.OutputDataSize = sizeof out3;
#else
    DXGK_QUERYSEGMENTOUT out1;
    memset(&out1, 0, sizeof out1);
    out1.NbSegment = SEGC_SEGMENT_COUNT;
    out1.pSegmentDescriptor = (DXGK_SEGMENTDESCRIPTOR *)(void *)desc;
    arg.Type = DXGKQAITYPE_QUERYSEGMENT;
    arg.pOutputData = &out1;
    arg.OutputDataSize = sizeof out1;
#endif
    return SEGC_QUERY_SEGMENTS(&arg, rt);
}

int main(int argc, char **argv)
{
    static const UINT pci[] = SEGC_PCI_BAR_TABLE, regs[] = SEGC_BAR_REGISTERS_TABLE;
    const UINT nbars = SEGC_BAR_COUNT;
    static CM_RESOURCE_LIST list;
    CM_PARTIAL_RESOURCE_LIST *pl = &list.List[0].PartialResourceList;
    SEGC_RUNTIME rt;
    int want_assert = argc > 1 && atoi(argv[1]);
    UINT reg = 0, top = 0, slot;

    for (slot = 0; slot < nbars; slot++)
        top = pci[slot] + regs[slot] > top ? pci[slot] + regs[slot] : top;
    list.Count = 1;
    pl->PartialDescriptors[pl->Count++].Type = CmResourceTypeInterrupt;
    while (reg < top) { /* one memory resource per BAR, in register order */
        CM_PARTIAL_RESOURCE_DESCRIPTOR *d = &pl->PartialDescriptors[pl->Count++];
        UINT width = 1;
        d->Type = reg % 2 ? CmResourceTypeMemoryLarge : CmResourceTypeMemory;
        d->u.Memory.Start.QuadPart = (LONGLONG)base_of(reg);
        for (slot = 0; slot < nbars; slot++)
            if (pci[slot] == reg)
                width = regs[slot];
        pl->PartialDescriptors[pl->Count++].Type = CmResourceTypeInterrupt;
        reg += width;
    }
    memset(&rt, 0xA5, sizeof rt);
    EXPECT(SegcFillBarBase(&list, &rt), "SegcFillBarBase did not find every BAR");
    for (slot = 0; slot < nbars; slot++)
        EXPECT((ULONGLONG)rt.BarBase[slot].QuadPart == base_of(pci[slot]), "slot %u: BarBase 0x%llx, want BAR%u's 0x%llx",
               slot, (unsigned long long)rt.BarBase[slot].QuadPart, pci[slot], (unsigned long long)base_of(pci[slot]));
    asserts = 0;
    EXPECT(second_call(&rt) == STATUS_SUCCESS, "second call with a filled runtime failed");
    EXPECT(asserts == 0, "%u SEGC_ASSERTs with every BarBase slot filled", asserts);

    memset(&rt, 0, sizeof rt);
    asserts = 0;
    EXPECT(second_call(&rt) == STATUS_SUCCESS, "second call with an unfilled runtime failed");
    EXPECT((asserts > 0) == (want_assert != 0), "%u SEGC_ASSERTs with BarBase unfilled, expected %s", asserts,
           want_assert ? "some" : "none");
    if (nbars == 0) {
        EXPECT(second_call(NULL) == STATUS_SUCCESS, "a board without BARs refuses a NULL runtime");
        EXPECT(SegcFillBarBase(NULL, &rt), "no BARs, no list: nothing to find");
    } else {
        EXPECT(second_call(NULL) == STATUS_INVALID_PARAMETER, "a board with BARs accepts a NULL runtime");
    }
    if (failures)
        return 1;
    printf("check_bars: ok: %u BARs filled from the resource list, %s\n", nbars,
           want_assert ? "an unfilled slot asserts" : "no BAR read, no assert");
    return 0;
}
