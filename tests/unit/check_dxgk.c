/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for templates/segc_dxgk.h in host mode.
 *
 * The header already pins every size and offset at compile time. These tests
 * check the same facts again at run time, one table row per fact, so that a
 * failure names the exact member. They also check the things a compile-time
 * assertion cannot see: the bit position of each DXGK_SEGMENTFLAGS field, the
 * enum values, and the NTSTATUS values.
 * Expected values come from reference/wddm-facts.md sections 1, 2, 3 and 3.7.
 *
 * Build with -Itemplates (the header is included by its bare name).
 */
#include <check.h>
#include <stddef.h>

#ifdef DXGKDDI_INTERFACE_VERSION
#error "check_dxgk.c expects the header's default interface version"
#endif

#include "segc_dxgk.h"

#if SEGC_USE_WDK
#error "check_dxgk.c tests the host declarations; build without the WDK"
#endif

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------------- */
/* Sizes and offsets                                                       */
/* ---------------------------------------------------------------------- */

struct layout_fact {
    const char *what;
    size_t      actual;
    size_t      expected;
};

#define SIZE_ROW(type, bytes)          { "sizeof(" #type ")", sizeof(type), (bytes) }
#define OFF_ROW(type, member, offset)  { #type "." #member, offsetof(type, member), (offset) }

/* Facts that hold for any pointer width. */
static const struct layout_fact portable_layout[] = {
    SIZE_ROW(BYTE, 1),
    SIZE_ROW(BOOLEAN, 1),
    SIZE_ROW(UINT, 4),
    SIZE_ROW(UINT32, 4),
    SIZE_ROW(UINT64, 8),
    SIZE_ROW(ULONG, 4),
    SIZE_ROW(LONG, 4),
    SIZE_ROW(DWORD, 4),
    SIZE_ROW(LONGLONG, 8),
    SIZE_ROW(ULONGLONG, 8),
    SIZE_ROW(NTSTATUS, 4),
    { "sizeof(SIZE_T) == sizeof(void *)", sizeof(SIZE_T), sizeof(void *) },
    { "sizeof(HANDLE) == sizeof(void *)", sizeof(HANDLE), sizeof(void *) },
    SIZE_ROW(LARGE_INTEGER, 8),
    SIZE_ROW(PHYSICAL_ADDRESS, 8),
    OFF_ROW(LARGE_INTEGER, LowPart, 0),
    OFF_ROW(LARGE_INTEGER, HighPart, 4),
    OFF_ROW(LARGE_INTEGER, u, 0),
    OFF_ROW(LARGE_INTEGER, u.LowPart, 0),
    OFF_ROW(LARGE_INTEGER, u.HighPart, 4),
    OFF_ROW(LARGE_INTEGER, QuadPart, 0),
    SIZE_ROW(DXGK_SEGMENTFLAGS, 4),
    OFF_ROW(DXGK_SEGMENTFLAGS, Value, 0),
    SIZE_ROW(DXGK_QUERYADAPTERINFOTYPE, 4),
    SIZE_ROW(DXGK_QUERYADAPTERINFOFLAGS, 4),
    SIZE_ROW(DXGK_QUERYSEGMENTIN4, 4),
    OFF_ROW(DXGK_QUERYSEGMENTIN4, PhysicalAdapterIndex, 0),
    /* allocation-facts.md 2.1, 2.2, 2.4: one UINT each */
    SIZE_ROW(DXGK_SEGMENTPREFERENCE, 4),
    OFF_ROW(DXGK_SEGMENTPREFERENCE, Value, 0),
    SIZE_ROW(DXGK_SEGMENTBANKPREFERENCE, 4),
    OFF_ROW(DXGK_SEGMENTBANKPREFERENCE, Value, 0),
    SIZE_ROW(DXGK_ALLOCATIONINFOFLAGS, 4),
    SIZE_ROW(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, 4),
};

/* Facts measured on x64 (wddm-facts.md section 3); checked only when
 * pointers are 8 bytes. */
static const struct layout_fact x64_layout[] = {
    /* 3.1 legacy descriptor: Flags last */
    SIZE_ROW(DXGK_SEGMENTDESCRIPTOR, 56),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR, BaseAddress, 0),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR, CpuTranslatedAddress, 8),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR, Size, 16),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR, NbOfBanks, 24),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR, pBankRangeTable, 32),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR, CommitLimit, 40),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR, Flags, 48),
    /* 3.2 descriptor 3: Flags first */
    SIZE_ROW(DXGK_SEGMENTDESCRIPTOR3, 72),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, Flags, 0),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, BaseAddress, 8),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, CpuTranslatedAddress, 16),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, Size, 24),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, NbOfBanks, 32),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, pBankRangeTable, 40),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, CommitLimit, 48),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, SystemMemoryEndAddress, 56),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR3, Reserved, 64),
    /* 3.3 */
    SIZE_ROW(DXGK_QUERYSEGMENTIN, 24),
    OFF_ROW(DXGK_QUERYSEGMENTIN, AgpApertureBase, 0),
    OFF_ROW(DXGK_QUERYSEGMENTIN, AgpApertureSize, 8),
    OFF_ROW(DXGK_QUERYSEGMENTIN, AgpFlags, 16),
    /* 3.4 */
    SIZE_ROW(DXGK_QUERYSEGMENTOUT, 32),
    OFF_ROW(DXGK_QUERYSEGMENTOUT, NbSegment, 0),
    OFF_ROW(DXGK_QUERYSEGMENTOUT, pSegmentDescriptor, 8),
    OFF_ROW(DXGK_QUERYSEGMENTOUT, PagingBufferSegmentId, 16),
    OFF_ROW(DXGK_QUERYSEGMENTOUT, PagingBufferSize, 20),
    OFF_ROW(DXGK_QUERYSEGMENTOUT, PagingBufferPrivateDataSize, 24),
    SIZE_ROW(DXGK_QUERYSEGMENTOUT3, 32),
    OFF_ROW(DXGK_QUERYSEGMENTOUT3, NbSegment, 0),
    OFF_ROW(DXGK_QUERYSEGMENTOUT3, pSegmentDescriptor, 8),
    OFF_ROW(DXGK_QUERYSEGMENTOUT3, PagingBufferSegmentId, 16),
    OFF_ROW(DXGK_QUERYSEGMENTOUT3, PagingBufferSize, 20),
    OFF_ROW(DXGK_QUERYSEGMENTOUT3, PagingBufferPrivateDataSize, 24),
    /* 3.5 (the header default is WDDM 3.0: the 48-byte shape) */
    OFF_ROW(DXGKARG_QUERYADAPTERINFO, Type, 0),
    OFF_ROW(DXGKARG_QUERYADAPTERINFO, pInputData, 8),
    OFF_ROW(DXGKARG_QUERYADAPTERINFO, InputDataSize, 16),
    OFF_ROW(DXGKARG_QUERYADAPTERINFO, pOutputData, 24),
    OFF_ROW(DXGKARG_QUERYADAPTERINFO, OutputDataSize, 32),
    OFF_ROW(DXGKARG_QUERYADAPTERINFO, Flags, 36),
    OFF_ROW(DXGKARG_QUERYADAPTERINFO, hKmdProcessHandle, 40),
    SIZE_ROW(DXGKARG_QUERYADAPTERINFO, 48),
    /* 3.6 */
    SIZE_ROW(DXGK_CPUHOSTAPERTURE, 16),
    OFF_ROW(DXGK_CPUHOSTAPERTURE, PhysicalAddress, 0),
    OFF_ROW(DXGK_CPUHOSTAPERTURE, SizeInPages, 8),
    SIZE_ROW(DXGK_QUERYSEGMENTOUT4, 40),
    OFF_ROW(DXGK_QUERYSEGMENTOUT4, NbSegment, 0),
    OFF_ROW(DXGK_QUERYSEGMENTOUT4, pSegmentDescriptor, 8),
    OFF_ROW(DXGK_QUERYSEGMENTOUT4, PagingBufferSegmentId, 16),
    OFF_ROW(DXGK_QUERYSEGMENTOUT4, PagingBufferSize, 20),
    OFF_ROW(DXGK_QUERYSEGMENTOUT4, PagingBufferPrivateDataSize, 24),
    OFF_ROW(DXGK_QUERYSEGMENTOUT4, SegmentDescriptorStride, 32),
    SIZE_ROW(DXGK_SEGMENTDESCRIPTOR4, 96),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, Flags, 0),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, BaseAddress, 8),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, Size, 16),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, CommitLimit, 24),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, SystemMemoryEndAddress, 32),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, CpuTranslatedAddress, 40),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, CpuHostAperture, 40),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, CpuHostAperture.PhysicalAddress, 40),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, CpuHostAperture.SizeInPages, 48),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, NumInvalidMemoryRanges, 56),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, VprRangeStartOffset, 64),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, VprRangeSize, 72),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, VprAlignment, 80),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, NumVprSupported, 84),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, VprReserveSize, 88),
    OFF_ROW(DXGK_SEGMENTDESCRIPTOR4, NumUEFIFrameBufferRanges, 92),
    /* allocation-facts.md 3.1 (x64, the same at every interface version) */
    SIZE_ROW(DXGK_ALLOCATIONINFO, 88),
    OFF_ROW(DXGK_ALLOCATIONINFO, pPrivateDriverData, 0),
    OFF_ROW(DXGK_ALLOCATIONINFO, PrivateDriverDataSize, 8),
    OFF_ROW(DXGK_ALLOCATIONINFO, Alignment, 12),
    OFF_ROW(DXGK_ALLOCATIONINFO, Size, 16),
    OFF_ROW(DXGK_ALLOCATIONINFO, PitchAlignedSize, 24),
    OFF_ROW(DXGK_ALLOCATIONINFO, HintedBank, 32),
    OFF_ROW(DXGK_ALLOCATIONINFO, PreferredSegment, 36),
    OFF_ROW(DXGK_ALLOCATIONINFO, SupportedReadSegmentSet, 40),
    OFF_ROW(DXGK_ALLOCATIONINFO, SupportedWriteSegmentSet, 44),
    OFF_ROW(DXGK_ALLOCATIONINFO, EvictionSegmentSet, 48),
    OFF_ROW(DXGK_ALLOCATIONINFO, MaximumRenamingListLength, 52),
    OFF_ROW(DXGK_ALLOCATIONINFO, PhysicalAdapterIndex, 52),
    OFF_ROW(DXGK_ALLOCATIONINFO, hAllocation, 56),
    OFF_ROW(DXGK_ALLOCATIONINFO, Flags, 64),
    OFF_ROW(DXGK_ALLOCATIONINFO, FlagsWddm2, 64),
    OFF_ROW(DXGK_ALLOCATIONINFO, pAllocationUsageHint, 72),
    OFF_ROW(DXGK_ALLOCATIONINFO, AllocationPriority, 80),
    OFF_ROW(DXGK_ALLOCATIONINFO, Flags2, 84),
};

/* The bit-fields of the one-word placement types (allocation-facts.md
 * 2.1, 2.2, 2.4): each field set to all ones alone gives this Value. */
static UINT pref_bits(int slot, int dir)
{
    DXGK_SEGMENTPREFERENCE p;
    p.Value = 0;
    switch (slot * 2 + dir) {
    case 0: p.SegmentId0 = 31; break;
    case 1: p.Direction0 = 1; break;
    case 2: p.SegmentId1 = 31; break;
    case 3: p.Direction1 = 1; break;
    case 4: p.SegmentId2 = 31; break;
    case 5: p.Direction2 = 1; break;
    case 6: p.SegmentId3 = 31; break;
    case 7: p.Direction3 = 1; break;
    case 8: p.SegmentId4 = 31; break;
    case 9: p.Direction4 = 1; break;
    default: p.Reserved = 3; break;
    }
    return p.Value;
}

static UINT bank_bits(int slot, int dir)
{
    DXGK_SEGMENTBANKPREFERENCE b;
    b.Value = 0;
    switch (slot * 2 + dir) {
    case 0: b.Bank0 = 127; break;
    case 1: b.Direction0 = 1; break;
    case 2: b.Bank1 = 127; break;
    case 3: b.Direction1 = 1; break;
    case 4: b.Bank2 = 127; break;
    case 5: b.Direction2 = 1; break;
    case 6: b.Bank3 = 127; break;
    default: b.Direction3 = 1; break;
    }
    return b.Value;
}

static UINT aiflags_bits(int which)
{
    DXGK_ALLOCATIONINFOFLAGS f;
    DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 f2;
    f.Value = 0;
    f2.Value = 0;
    switch (which) {
    case 0: f.CpuVisible = 1; return f.Value;
    case 1: f.Cached = 1; return f.Value;
    case 2: f.UseAlternateVA = 1; return f.Value;
    case 3: f.LinkInstanced = 1; return f.Value;
    case 4: f.HistoryBuffer = 1; return f.Value;
    case 5: f.AccessedPhysically = 1; return f.Value;
    case 6: f.CpuVisibleOnDemand = 1; return f.Value;
    case 7: f2.CreateInVpr = 1; return f2.Value;
    default: f2.MapApertureCpuVisible = 1; return f2.Value;
    }
}

static const struct { const char *field; int kind, slot, dir; UINT expected; } bits_table[] = {
    {"SegmentId0", 0, 0, 0, 0x0000001Fu}, {"Direction0", 0, 0, 1, 0x00000020u},
    {"SegmentId1", 0, 1, 0, 0x000007C0u}, {"Direction1", 0, 1, 1, 0x00000800u},
    {"SegmentId2", 0, 2, 0, 0x0001F000u}, {"Direction2", 0, 2, 1, 0x00020000u},
    {"SegmentId3", 0, 3, 0, 0x007C0000u}, {"Direction3", 0, 3, 1, 0x00800000u},
    {"SegmentId4", 0, 4, 0, 0x1F000000u}, {"Direction4", 0, 4, 1, 0x20000000u},
    {"Reserved", 0, 5, 0, 0xC0000000u},
    {"Bank0", 1, 0, 0, 0x0000007Fu}, {"Direction0", 1, 0, 1, 0x00000080u},
    {"Bank1", 1, 1, 0, 0x00007F00u}, {"Direction1", 1, 1, 1, 0x00008000u},
    {"Bank2", 1, 2, 0, 0x007F0000u}, {"Direction2", 1, 2, 1, 0x00800000u},
    {"Bank3", 1, 3, 0, 0x7F000000u}, {"Direction3", 1, 3, 1, 0x80000000u},
    {"Flags.CpuVisible", 2, 0, 0, 0x1u}, {"Flags.Cached", 2, 1, 0, 0x4u},
    {"Flags.UseAlternateVA", 2, 2, 0, 0x400u}, {"Flags.LinkInstanced", 2, 3, 0, 0x2000u},
    {"Flags.HistoryBuffer", 2, 4, 0, 0x4000u}, {"Flags.AccessedPhysically", 2, 5, 0, 0x8000u},
    {"Flags.CpuVisibleOnDemand", 2, 6, 0, 0x40000u}, {"FlagsWddm2.CreateInVpr", 2, 7, 0, 0x400u},
    {"FlagsWddm2.MapApertureCpuVisible", 2, 8, 0, 0x2000u},
};

START_TEST(test_placement_bits)
{
    int k = bits_table[_i].kind;
    UINT got = k == 0 ? pref_bits(bits_table[_i].slot, bits_table[_i].dir)
             : k == 1 ? bank_bits(bits_table[_i].slot, bits_table[_i].dir) : aiflags_bits(bits_table[_i].slot);
    ck_assert_msg(got == bits_table[_i].expected, "%s: Value 0x%08x, expected 0x%08x", bits_table[_i].field,
                  (unsigned)got, (unsigned)bits_table[_i].expected);
}
END_TEST

static void check_layout_row(const struct layout_fact *row)
{
    ck_assert_msg(row->actual == row->expected, "%s: got %lu, expected %lu",
                  row->what, (unsigned long)row->actual,
                  (unsigned long)row->expected);
}

START_TEST(test_portable_layout)
{
    check_layout_row(&portable_layout[_i]);
}
END_TEST

START_TEST(test_x64_layout)
{
    check_layout_row(&x64_layout[_i]);
}
END_TEST

/* Alignment without C11's _Alignof: the offset of a member that follows a
 * single char. The probe struct is declared in its own block, because a type
 * defined inside offsetof() is an extension that newer clangs flag. */
#define CHECK_ALIGN(type, expected)                                      \
    do {                                                                 \
        struct align_probe { char c; type member; };                     \
        ck_assert_msg(offsetof(struct align_probe, member) == (expected), \
                      "alignof(" #type ") is %lu, expected %lu",         \
                      (unsigned long)offsetof(struct align_probe, member), \
                      (unsigned long)(expected));                        \
    } while (0)

START_TEST(test_alignment)
{
    CHECK_ALIGN(DXGK_SEGMENTFLAGS, 4);
    if (sizeof(void *) == 8) {
        /* Section 3: alignment 8 for these on x64. */
        CHECK_ALIGN(LARGE_INTEGER, 8);
        CHECK_ALIGN(DXGK_SEGMENTDESCRIPTOR, 8);
        CHECK_ALIGN(DXGK_SEGMENTDESCRIPTOR3, 8);
        CHECK_ALIGN(DXGK_QUERYSEGMENTIN, 8);
        CHECK_ALIGN(DXGK_QUERYSEGMENTOUT, 8);
        CHECK_ALIGN(DXGK_QUERYSEGMENTOUT3, 8);
        CHECK_ALIGN(DXGK_ALLOCATIONINFO, 8);
    }
}
END_TEST

/* LowPart/HighPart are the low and high halves of QuadPart (little endian,
 * like every Windows target), and the named "u" view aliases them. */
START_TEST(test_large_integer_views)
{
    LARGE_INTEGER li;

    li.QuadPart = 0x1234567889ABCDEFLL;
    ck_assert_uint_eq(li.LowPart, 0x89ABCDEFu);
    ck_assert_int_eq(li.HighPart, 0x12345678);
    ck_assert_uint_eq(li.u.LowPart, 0x89ABCDEFu);
    ck_assert_int_eq(li.u.HighPart, 0x12345678);

    li.HighPart = -1;
    ck_assert(li.QuadPart < 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* DXGK_SEGMENTFLAGS bit positions (section 2)                             */
/* ---------------------------------------------------------------------- */

struct flag_fact {
    const char *field;
    void      (*set)(DXGK_SEGMENTFLAGS *f);
    UINT      (*get)(const DXGK_SEGMENTFLAGS *f);
    UINT        expected;   /* mask from the section 2 table */
    UINT        segc_macro; /* the matching SEGC_FLAG_* */
};

#define FLAG_ACCESSORS(field)                                                   \
    static void set_##field(DXGK_SEGMENTFLAGS *f) { f->field = 1u; }            \
    static UINT get_##field(const DXGK_SEGMENTFLAGS *f) { return f->field; }

FLAG_ACCESSORS(Aperture)
FLAG_ACCESSORS(Agp)
FLAG_ACCESSORS(CpuVisible)
FLAG_ACCESSORS(UseBanking)
FLAG_ACCESSORS(CacheCoherent)
FLAG_ACCESSORS(PitchAlignment)
FLAG_ACCESSORS(PopulatedFromSystemMemory)
FLAG_ACCESSORS(PreservedDuringStandby)
FLAG_ACCESSORS(PreservedDuringHibernate)
FLAG_ACCESSORS(PartiallyPreservedDuringHibernate)
FLAG_ACCESSORS(DirectFlip)
FLAG_ACCESSORS(Use64KBPages)
FLAG_ACCESSORS(ReservedSysMem)
FLAG_ACCESSORS(SupportsCpuHostAperture)
FLAG_ACCESSORS(SupportsCachedCpuHostAperture)
FLAG_ACCESSORS(ApplicationTarget)
FLAG_ACCESSORS(VprSupported)
FLAG_ACCESSORS(VprPreservedDuringStandby)
FLAG_ACCESSORS(EncryptedPagingSupported)
FLAG_ACCESSORS(LocalBudgetGroup)
FLAG_ACCESSORS(NonLocalBudgetGroup)
FLAG_ACCESSORS(PopulatedByReservedDDRByFirmware)

#define FLAG_ROW(field, mask, macro) { #field, set_##field, get_##field, (mask), (macro) }

static const struct flag_fact flag_table[] = {
    FLAG_ROW(Aperture,                          0x00000001u, SEGC_FLAG_APERTURE),
    FLAG_ROW(Agp,                               0x00000002u, SEGC_FLAG_AGP),
    FLAG_ROW(CpuVisible,                        0x00000004u, SEGC_FLAG_CPU_VISIBLE),
    FLAG_ROW(UseBanking,                        0x00000008u, SEGC_FLAG_USE_BANKING),
    FLAG_ROW(CacheCoherent,                     0x00000010u, SEGC_FLAG_CACHE_COHERENT),
    FLAG_ROW(PitchAlignment,                    0x00000020u, SEGC_FLAG_PITCH_ALIGNMENT),
    FLAG_ROW(PopulatedFromSystemMemory,         0x00000040u, SEGC_FLAG_POPULATED_FROM_SYSTEM_MEMORY),
    FLAG_ROW(PreservedDuringStandby,            0x00000080u, SEGC_FLAG_PRESERVED_DURING_STANDBY),
    FLAG_ROW(PreservedDuringHibernate,          0x00000100u, SEGC_FLAG_PRESERVED_DURING_HIBERNATE),
    FLAG_ROW(PartiallyPreservedDuringHibernate, 0x00000200u, SEGC_FLAG_PARTIALLY_PRESERVED_DURING_HIBERNATE),
    FLAG_ROW(DirectFlip,                        0x00000400u, SEGC_FLAG_DIRECT_FLIP),
    FLAG_ROW(Use64KBPages,                      0x00000800u, SEGC_FLAG_USE_64KB_PAGES),
    FLAG_ROW(ReservedSysMem,                    0x00001000u, SEGC_FLAG_RESERVED_SYS_MEM),
    FLAG_ROW(SupportsCpuHostAperture,           0x00002000u, SEGC_FLAG_SUPPORTS_CPU_HOST_APERTURE),
    FLAG_ROW(SupportsCachedCpuHostAperture,     0x00004000u, SEGC_FLAG_SUPPORTS_CACHED_CPU_HOST_APERTURE),
    FLAG_ROW(ApplicationTarget,                 0x00008000u, SEGC_FLAG_APPLICATION_TARGET),
    FLAG_ROW(VprSupported,                      0x00010000u, SEGC_FLAG_VPR_SUPPORTED),
    FLAG_ROW(VprPreservedDuringStandby,         0x00020000u, SEGC_FLAG_VPR_PRESERVED_DURING_STANDBY),
    FLAG_ROW(EncryptedPagingSupported,          0x00040000u, SEGC_FLAG_ENCRYPTED_PAGING_SUPPORTED),
    FLAG_ROW(LocalBudgetGroup,                  0x00080000u, SEGC_FLAG_LOCAL_BUDGET_GROUP),
    FLAG_ROW(NonLocalBudgetGroup,               0x00100000u, SEGC_FLAG_NON_LOCAL_BUDGET_GROUP),
    FLAG_ROW(PopulatedByReservedDDRByFirmware,  0x00200000u, SEGC_FLAG_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE),
};

/* Setting the field alone must give exactly its mask in Value. */
START_TEST(test_flag_set_gives_mask)
{
    const struct flag_fact *row = &flag_table[_i];
    DXGK_SEGMENTFLAGS f;

    f.Value = 0u;
    row->set(&f);
    ck_assert_msg(f.Value == row->expected, "%s: Value 0x%08x, expected 0x%08x",
                  row->field, (unsigned)f.Value, (unsigned)row->expected);
}
END_TEST

/* Writing the mask to Value must turn on this field and no other one. */
START_TEST(test_flag_mask_reads_back)
{
    const struct flag_fact *row = &flag_table[_i];
    DXGK_SEGMENTFLAGS f;
    size_t j;

    f.Value = row->expected;
    for (j = 0; j < COUNT_OF(flag_table); j++) {
        ck_assert_msg(flag_table[j].get(&f) == (j == (size_t)_i ? 1u : 0u),
                      "Value 0x%08x: %s reads %u", (unsigned)row->expected,
                      flag_table[j].field, (unsigned)flag_table[j].get(&f));
    }
    ck_assert_uint_eq(f.Reserved, 0);
}
END_TEST

/* The SEGC_FLAG_* macro must equal the section 2 mask. */
START_TEST(test_flag_macro)
{
    const struct flag_fact *row = &flag_table[_i];

    ck_assert_msg(row->segc_macro == row->expected,
                  "SEGC_FLAG_ for %s is 0x%08x, expected 0x%08x", row->field,
                  (unsigned)row->segc_macro, (unsigned)row->expected);
}
END_TEST

START_TEST(test_flag_reserved_bits)
{
    DXGK_SEGMENTFLAGS f;
    UINT all = 0u;
    size_t i;

    /* Reserved is 10 bits wide and covers bits 22..31. */
    f.Value = 0u;
    f.Reserved = 0x3FFu;
    ck_assert_uint_eq(f.Value, 0xFFC00000u);
    ck_assert_uint_eq(SEGC_FLAG_RESERVED_MASK, 0xFFC00000u);

    /* The named bits are disjoint and fill bits 0..21. */
    for (i = 0; i < COUNT_OF(flag_table); i++) {
        ck_assert_uint_eq(all & flag_table[i].expected, 0);
        all |= flag_table[i].expected;
    }
    ck_assert_uint_eq(all, 0x003FFFFFu);
    ck_assert_uint_eq(all | SEGC_FLAG_RESERVED_MASK, 0xFFFFFFFFu);
}
END_TEST

/* Combinations seen in real drivers (wddm-facts.md section 7.2). */
START_TEST(test_flag_known_combinations)
{
    DXGK_SEGMENTFLAGS f;

    f.Value = 0u;
    f.Aperture = 1u;
    f.CpuVisible = 1u;
    f.CacheCoherent = 1u;
    ck_assert_uint_eq(f.Value, 0x15u);

    f.Value = 0u;
    f.CpuVisible = 1u;
    f.CacheCoherent = 1u;
    f.DirectFlip = 1u;
    ck_assert_uint_eq(f.Value, 0x414u);

    f.Value = 0u;
    f.Aperture = 1u;
    f.CacheCoherent = 1u;
    f.DirectFlip = 1u;
    ck_assert_uint_eq(f.Value, 0x411u);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Enums and constants                                                     */
/* ---------------------------------------------------------------------- */

struct value_fact {
    const char   *name;
    long long     actual;
    long long     expected;
};

#define VALUE_ROW(name, expected) { #name, (long long)(name), (expected) }

static const struct value_fact value_table[] = {
    /* DXGK_QUERYADAPTERINFOTYPE (section 3.7) */
    VALUE_ROW(DXGKQAITYPE_UMDRIVERPRIVATE, 0),
    VALUE_ROW(DXGKQAITYPE_DRIVERCAPS, 1),
    VALUE_ROW(DXGKQAITYPE_QUERYSEGMENT, 2),
    VALUE_ROW(DXGKQAITYPE_RESERVED, 3),
    VALUE_ROW(DXGKQAITYPE_QUERYSEGMENT2, 4),
    VALUE_ROW(DXGKQAITYPE_QUERYSEGMENT3, 5),
    VALUE_ROW(DXGKQAITYPE_NUMPOWERCOMPONENTS, 6),
    VALUE_ROW(DXGKQAITYPE_POWERCOMPONENTINFO, 7),
    VALUE_ROW(DXGKQAITYPE_PREFERREDGPUNODE, 8),
    VALUE_ROW(DXGKQAITYPE_POWERCOMPONENTPSTATEINFO, 9),
    VALUE_ROW(DXGKQAITYPE_HISTORYBUFFERPRECISION, 10),
    VALUE_ROW(DXGKQAITYPE_QUERYSEGMENT4, 11),
    VALUE_ROW(DXGKQAITYPE_SEGMENTMEMORYSTATE, 12),
    VALUE_ROW(DXGKQAITYPE_GPUMMUCAPS, 13),
    VALUE_ROW(DXGKQAITYPE_PAGETABLELEVELDESC, 14),
    VALUE_ROW(DXGKQAITYPE_PHYSICALADAPTERCAPS, 15),
    VALUE_ROW(DXGKQAITYPE_DISPLAY_DRIVERCAPS_EXTENSION, 16),
    VALUE_ROW(DXGKQAITYPE_INTEGRATED_DISPLAY_DESCRIPTOR, 17),
    VALUE_ROW(DXGKQAITYPE_UEFIFRAMEBUFFERRANGES, 18),
    VALUE_ROW(DXGKQAITYPE_QUERYCOLORIMETRYOVERRIDES, 19),
    VALUE_ROW(DXGKQAITYPE_DISPLAYID_DESCRIPTOR, 20),
    /* DXGK_WDDMVERSION (section 1) */
    VALUE_ROW(DXGKDDI_WDDMv1, 0x1000),
    VALUE_ROW(DXGKDDI_WDDMv1_2, 0x1200),
    VALUE_ROW(DXGKDDI_WDDMv1_3, 0x1300),
    VALUE_ROW(DXGKDDI_WDDMv2, 0x2000),
    VALUE_ROW(DXGKDDI_WDDMv2_1, 0x2100),
    VALUE_ROW(DXGKDDI_WDDMv2_2, 0x2200),
    VALUE_ROW(DXGKDDI_WDDMv2_3, 0x2300),
    /* DXGKDDI_INTERFACE_VERSION_* (section 1) */
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_VISTA, 0x1052),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_VISTA_SP1, 0x1053),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WIN7, 0x2005),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WIN8, 0x300E),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0x4002),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM1_3_PATH_INDEPENDENT_ROTATION, 0x4003),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0x5023),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_1, 0x6003),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_1_5, 0x6010),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_1_6, 0x6011),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0x700A),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_3, 0x8001),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_4, 0x9006),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_5, 0xA00B),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_6, 0xB004),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_7, 0xC004),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_8, 0xD001),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM2_9, 0xE003),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM3_0, 0xF003),
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION_WDDM3_1, 0x10004),
    /* The default when the build does not choose a version. */
    VALUE_ROW(DXGKDDI_INTERFACE_VERSION, 0xF003),
    /* Segment ids (section 3.7) */
    VALUE_ROW(DXGK_SEGMENT_ID_INVALID, 0),
    VALUE_ROW(DXGK_SEGMENT_ID_SYSTEMMEMORY, 31),
    VALUE_ROW(DXGK_SEGMENT_SET_SYSTEMMEMORY, 0x80000000LL),
    /* NTSTATUS, as their 32-bit patterns (section 4) */
    VALUE_ROW((UINT)STATUS_SUCCESS, 0x00000000LL),
    VALUE_ROW((UINT)STATUS_INVALID_PARAMETER, 0xC000000DLL),
    VALUE_ROW((UINT)STATUS_BUFFER_TOO_SMALL, 0xC0000023LL),
    VALUE_ROW((UINT)STATUS_NOT_SUPPORTED, 0xC00000BBLL),
    VALUE_ROW((UINT)STATUS_NO_MEMORY, 0xC0000017LL),
    /* Small kernel stand-ins */
    VALUE_ROW(TRUE, 1),
    VALUE_ROW(FALSE, 0),
    VALUE_ROW(PASSIVE_LEVEL, 0),
    VALUE_ROW(FIELD_OFFSET(LARGE_INTEGER, HighPart), 4),
};

START_TEST(test_values)
{
    const struct value_fact *row = &value_table[_i];

    ck_assert_msg(row->actual == row->expected, "%s: got 0x%llx, expected 0x%llx",
                  row->name, (unsigned long long)row->actual,
                  (unsigned long long)row->expected);
}
END_TEST

START_TEST(test_ntstatus_semantics)
{
    /* NTSTATUS is a signed 32-bit type: errors are negative. */
    ck_assert(NT_SUCCESS(STATUS_SUCCESS));
    ck_assert(!NT_SUCCESS(STATUS_INVALID_PARAMETER));
    ck_assert(!NT_SUCCESS(STATUS_BUFFER_TOO_SMALL));
    ck_assert(!NT_SUCCESS(STATUS_NOT_SUPPORTED));
    ck_assert(!NT_SUCCESS(STATUS_NO_MEMORY));
    ck_assert(NT_SUCCESS((NTSTATUS)0x40000000)); /* informational */
    ck_assert(STATUS_INVALID_PARAMETER < 0);
    ck_assert((NTSTATUS)-1 < 0);
}
END_TEST

/* The three query types the generator answers, spelled out. */
START_TEST(test_query_types)
{
    ck_assert_int_eq(DXGKQAITYPE_QUERYSEGMENT, 2);
    ck_assert_int_eq(DXGKQAITYPE_QUERYSEGMENT3, 5);
    ck_assert_int_eq(DXGKQAITYPE_QUERYSEGMENT4, 11);
}
END_TEST

/* ---------------------------------------------------------------------- */

Suite *dxgk_suite(void);

Suite *dxgk_suite(void)
{
    Suite *s = suite_create("dxgk");
    TCase *tc;

    tc = tcase_create("layout");
    tcase_add_loop_test(tc, test_portable_layout, 0, (int)COUNT_OF(portable_layout));
    if (sizeof(void *) == 8) {
        /* The section 3 offsets are x64 measurements. */
        tcase_add_loop_test(tc, test_x64_layout, 0, (int)COUNT_OF(x64_layout));
    }
    tcase_add_test(tc, test_alignment);
    tcase_add_loop_test(tc, test_placement_bits, 0, (int)COUNT_OF(bits_table));
    tcase_add_test(tc, test_large_integer_views);
    suite_add_tcase(s, tc);

    tc = tcase_create("flags");
    tcase_add_loop_test(tc, test_flag_set_gives_mask, 0, (int)COUNT_OF(flag_table));
    tcase_add_loop_test(tc, test_flag_mask_reads_back, 0, (int)COUNT_OF(flag_table));
    tcase_add_loop_test(tc, test_flag_macro, 0, (int)COUNT_OF(flag_table));
    tcase_add_test(tc, test_flag_reserved_bits);
    tcase_add_test(tc, test_flag_known_combinations);
    suite_add_tcase(s, tc);

    tc = tcase_create("values");
    tcase_add_loop_test(tc, test_values, 0, (int)COUNT_OF(value_table));
    tcase_add_test(tc, test_ntstatus_semantics);
    tcase_add_test(tc, test_query_types);
    suite_add_tcase(s, tc);

    return s;
}
