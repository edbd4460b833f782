/* SPDX-License-Identifier: MIT-0 (segc output: use, change and ship it under any terms) */
/*
 * segc_dxgk.h - the DXGK vocabulary that segc-generated code is written in.
 *
 * segc copies this file, unchanged, next to the <board>_segments.[ch] files
 * it generates. The generated code includes only this header, so the same
 * generated source builds in two settings:
 *
 *   WDK mode   A real driver build. This header pulls in <ntddk.h>,
 *              <windef.h> and <d3dkmddi.h> (in that order, each one only if
 *              it has not been included yet). Apart from the SEGC_* helper
 *              macros below, it declares nothing.
 *
 *   host mode  Anything without the WDK (Linux or macOS unit tests, CI).
 *              This header declares the basic Windows types and the few DXGK
 *              types and constants that segment handlers use. Names, member
 *              names, member types and member order match the WDK, so the
 *              generated code reads the same in both modes.
 *
 * Choosing the mode:
 *   - SEGC_USE_WDK defined as 1 (or defined with no value): WDK mode.
 *   - SEGC_USE_WDK defined as 0: host mode, even when WDK guards are set.
 *   - SEGC_USE_WDK not defined: WDK mode if <ntddk.h> (_NTDDK_) or
 *     <d3dkmddi.h> (_D3DKMDDI_H_) has already been included, else host mode.
 *   After this header, SEGC_USE_WDK is always defined as 0 or 1.
 *
 * The host declarations are written by the segc project from the documented
 * member lists and the measured layouts in reference/wddm-facts.md and
 * reference/allocation-facts.md (the allocation placement types). Nothing
 * here is copied from a Microsoft, mingw-w64, ReactOS or other header.
 *
 * Notes on host mode:
 *   - Anonymous members. The WDK puts some members in anonymous structs and
 *     unions (flags.Aperture next to flags.Value, addr.LowPart next to
 *     addr.QuadPart, desc4.CpuTranslatedAddress). Those are C11. Under
 *     -std=c99 -pedantic, gcc and clang warn about them, and the warning
 *     is an error with -Werror. Host mode keeps them anonymous, so member
 *     access matches the WDK, and marks each one with GCC's __extension__
 *     keyword (clang has it too). That turns the pedantic diagnostic off
 *     for that one declaration. On MSVC, warning C4201 is suppressed around
 *     the declarations instead.
 *   - Layout pins. Every size and offset from wddm-facts.md section 3 is
 *     checked at compile time with SEGC_STATIC_ASSERT. Under C11 or C++11 it
 *     is _Static_assert or static_assert. Under C99 it becomes a file-scope
 *     typedef of a char array whose size is -1 when the condition is false.
 *     That typedef is warning-free under -std=c99 -pedantic, where
 *     _Static_assert itself draws a warning.
 *   - Pointer width. The offsets in section 3 were measured for x86_64
 *     (LLP64 Windows). They are pinned only when pointers are 8 bytes. With
 *     4-byte pointers (x86) only the layout-independent facts are pinned:
 *     basic type widths, DXGK_SEGMENTFLAGS = 4 bytes, LARGE_INTEGER = 8 bytes,
 *     and the enum being 4 bytes; the segment descriptors' x86 Windows
 *     layouts were never measured. Also, i386 System V aligns 64-bit members
 *     to 4 bytes where MSVC x86 aligns them to 8, so a 32-bit host build is
 *     not a model of a 32-bit driver for those. DXGK_ALLOCATIONINFO has no
 *     64-bit member on x86 (SIZE_T, pointers and handles are 4 bytes), and
 *     its x86 layout was measured (allocation-facts.md section 3.1): it is
 *     pinned for both widths.
 *   - Integer widths follow Windows (LLP64), not the host: ULONG, LONG and
 *     DWORD are 32-bit here even where the host's long is 64-bit. SIZE_T is
 *     size_t, which is pointer-wide.
 *   - Interface version. Like the WDK, host mode shapes some declarations by
 *     DXGKDDI_INTERFACE_VERSION: flag bits, DESCRIPTOR3, the QUERYSEGMENT4
 *     family, the enumerators, and the Flags and hKmdProcessHandle members
 *     of DXGKARG_QUERYADAPTERINFO. If the build does not define the version,
 *     it is set to DXGKDDI_INTERFACE_VERSION_WDDM3_0, the same default as
 *     Microsoft's MIT-licensed d3dukmdt.h. With that default every member
 *     listed in wddm-facts.md exists and DXGKARG_QUERYADAPTERINFO is the
 *     48-byte WDDM 2.4+ shape. Below WDDM 2.4 it is 40 bytes, as in the WDK.
 */
#ifndef SEGC_DXGK_H
#define SEGC_DXGK_H

/* ---------------------------------------------------------------------- */
/* Mode selection                                                          */
/* ---------------------------------------------------------------------- */

#if defined(SEGC_USE_WDK)
/* A definition with no value (e.g. "#define SEGC_USE_WDK") counts as 1:
 * only an empty expansion makes (0 - X - 1) equal 1. */
#  if (0 - SEGC_USE_WDK - 1) == 1
#    undef SEGC_USE_WDK
#    define SEGC_USE_WDK 1
#  endif
#elif defined(_NTDDK_) || defined(_D3DKMDDI_H_)
#  define SEGC_USE_WDK 1
#else
#  define SEGC_USE_WDK 0
#endif

/* ---------------------------------------------------------------------- */
/* segc helpers: defined in both modes                                     */
/* ---------------------------------------------------------------------- */

/* Compile-time assertion. TAG must be an identifier that is unique within
 * the translation unit (the C99 fallback uses it to name a typedef). */
#if defined(__cplusplus) && __cplusplus >= 201103L
#  define SEGC_STATIC_ASSERT(cond, tag) static_assert((cond), #tag)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#  define SEGC_STATIC_ASSERT(cond, tag) _Static_assert((cond), #tag)
#else
#  define SEGC_STATIC_ASSERT(cond, tag) \
    typedef char segc_static_assert_##tag[(cond) ? 1 : -1]
#endif

/* A size/offset fact measured on 64-bit Windows. When pointers are not
 * 8 bytes wide the assertion is vacuously true. */
#define SEGC_STATIC_ASSERT_PTR64(cond, tag) \
    SEGC_STATIC_ASSERT(sizeof(void *) != 8 || (cond), tag)
/* The same for a fact measured on 32-bit x86 Windows. */
#define SEGC_STATIC_ASSERT_PTR32(cond, tag) \
    SEGC_STATIC_ASSERT(sizeof(void *) != 4 || (cond), tag)

/* Marks a parameter as deliberately unused. Works on const parameters,
 * unlike the WDK's UNREFERENCED_PARAMETER, which assigns to its argument. */
#define SEGC_UNUSED(x) ((void)(x))

/* What the generated code asserts in checked builds: that the driver
 * filled each BarBase slot it reads.  Define SEGC_ASSERT(e) before this
 * header to route it to the driver's own assertion; by default it is
 * NT_ASSERT in a checked WDK build (DBG) and nothing otherwise. */
#ifndef SEGC_ASSERT
#  if SEGC_USE_WDK && defined(DBG) && DBG
#    define SEGC_ASSERT(e) NT_ASSERT(e)
#  else
#    define SEGC_ASSERT(e) ((void)0)
#  endif
#endif

/* One mask per DXGK_SEGMENTFLAGS bit (wddm-facts.md section 2). They are
 * plain unsigned constants, so they work in #if and in both modes, and do
 * not depend on which bits the active interface version declares. */
#define SEGC_FLAG_APERTURE                              0x00000001u
#define SEGC_FLAG_AGP                                   0x00000002u
#define SEGC_FLAG_CPU_VISIBLE                           0x00000004u
#define SEGC_FLAG_USE_BANKING                           0x00000008u
#define SEGC_FLAG_CACHE_COHERENT                        0x00000010u
#define SEGC_FLAG_PITCH_ALIGNMENT                       0x00000020u
#define SEGC_FLAG_POPULATED_FROM_SYSTEM_MEMORY          0x00000040u
#define SEGC_FLAG_PRESERVED_DURING_STANDBY              0x00000080u
#define SEGC_FLAG_PRESERVED_DURING_HIBERNATE            0x00000100u
#define SEGC_FLAG_PARTIALLY_PRESERVED_DURING_HIBERNATE  0x00000200u
#define SEGC_FLAG_DIRECT_FLIP                           0x00000400u
#define SEGC_FLAG_USE_64KB_PAGES                        0x00000800u
#define SEGC_FLAG_RESERVED_SYS_MEM                      0x00001000u
#define SEGC_FLAG_SUPPORTS_CPU_HOST_APERTURE            0x00002000u
#define SEGC_FLAG_SUPPORTS_CACHED_CPU_HOST_APERTURE     0x00004000u
#define SEGC_FLAG_APPLICATION_TARGET                    0x00008000u
#define SEGC_FLAG_VPR_SUPPORTED                         0x00010000u
#define SEGC_FLAG_VPR_PRESERVED_DURING_STANDBY          0x00020000u
#define SEGC_FLAG_ENCRYPTED_PAGING_SUPPORTED            0x00040000u
#define SEGC_FLAG_LOCAL_BUDGET_GROUP                    0x00080000u
#define SEGC_FLAG_NON_LOCAL_BUDGET_GROUP                0x00100000u
#define SEGC_FLAG_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE 0x00200000u
/* Bits 22..31: no header version gives them a name; they must stay 0. */
#define SEGC_FLAG_RESERVED_MASK                         0xFFC00000u

#if SEGC_USE_WDK
/* ====================================================================== */
/* WDK mode                                                                */
/* ====================================================================== */

#  ifndef _NTDDK_
#    include <ntddk.h>
#  endif
#  ifndef _WINDEF_
#    include <windef.h>
#  endif
#  ifndef _D3DKMDDI_H_
#    include <d3dkmddi.h>
#  endif

#else /* !SEGC_USE_WDK */
/* ====================================================================== */
/* host mode                                                               */
/* ====================================================================== */

#include <stddef.h> /* size_t, offsetof, NULL: freestanding, no libc needed */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define SEGC_ANONYMOUS __extension__
#else
#  define SEGC_ANONYMOUS
#endif

#if defined(_MSC_VER)
#  pragma warning(push)
#  pragma warning(disable : 4201) /* nameless struct/union */
#endif

/* ---- Interface versions (wddm-facts.md section 1) -------------------- */

#define DXGKDDI_INTERFACE_VERSION_VISTA                          0x1052
#define DXGKDDI_INTERFACE_VERSION_VISTA_SP1                      0x1053
#define DXGKDDI_INTERFACE_VERSION_WIN7                           0x2005
#define DXGKDDI_INTERFACE_VERSION_WIN8                           0x300E
#define DXGKDDI_INTERFACE_VERSION_WDDM1_3                        0x4002
#define DXGKDDI_INTERFACE_VERSION_WDDM1_3_PATH_INDEPENDENT_ROTATION 0x4003
#define DXGKDDI_INTERFACE_VERSION_WDDM2_0                        0x5023
#define DXGKDDI_INTERFACE_VERSION_WDDM2_1                        0x6003
#define DXGKDDI_INTERFACE_VERSION_WDDM2_1_5                      0x6010
#define DXGKDDI_INTERFACE_VERSION_WDDM2_1_6                      0x6011
#define DXGKDDI_INTERFACE_VERSION_WDDM2_2                        0x700A
#define DXGKDDI_INTERFACE_VERSION_WDDM2_3                        0x8001
#define DXGKDDI_INTERFACE_VERSION_WDDM2_4                        0x9006
#define DXGKDDI_INTERFACE_VERSION_WDDM2_5                        0xA00B
#define DXGKDDI_INTERFACE_VERSION_WDDM2_6                        0xB004
#define DXGKDDI_INTERFACE_VERSION_WDDM2_7                        0xC004
#define DXGKDDI_INTERFACE_VERSION_WDDM2_8                        0xD001
#define DXGKDDI_INTERFACE_VERSION_WDDM2_9                        0xE003
#define DXGKDDI_INTERFACE_VERSION_WDDM3_0                        0xF003
#define DXGKDDI_INTERFACE_VERSION_WDDM3_1                        0x10004

#ifndef DXGKDDI_INTERFACE_VERSION
#  define DXGKDDI_INTERFACE_VERSION DXGKDDI_INTERFACE_VERSION_WDDM3_0
#endif

/* True when the build targets interface version v or later. */
#define SEGC_DXGK_SINCE(v) (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_##v)

/* ---- Basic Windows types (LLP64 widths) ------------------------------ */

#ifndef VOID
#  define VOID void
#endif
#ifndef CONST
#  define CONST const
#endif

typedef unsigned char      BYTE;
typedef unsigned char      BOOLEAN;
typedef unsigned int       UINT;
typedef unsigned char      UINT8;
typedef unsigned short     UINT16;
typedef unsigned int       UINT32;
typedef unsigned long long UINT64;
typedef unsigned int       ULONG;
typedef int                LONG;
typedef unsigned int       DWORD;
typedef long long          LONGLONG;
typedef unsigned long long ULONGLONG;
typedef size_t             SIZE_T;
typedef void              *PVOID;
typedef void              *HANDLE;
typedef LONG               NTSTATUS;

/* A 64-bit value that can also be read as two 32-bit halves: through the
 * anonymous struct (x.LowPart) or through the named one (x.u.LowPart). */
typedef union _LARGE_INTEGER {
    SEGC_ANONYMOUS struct {
        DWORD LowPart;
        LONG  HighPart;
    };
    struct {
        DWORD LowPart;
        LONG  HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

typedef LARGE_INTEGER PHYSICAL_ADDRESS, *PPHYSICAL_ADDRESS;

#ifndef TRUE
#  define TRUE 1
#endif
#ifndef FALSE
#  define FALSE 0
#endif

/* ---- Status codes ---------------------------------------------------- */

#ifndef NT_SUCCESS
#  define NT_SUCCESS(status) (((NTSTATUS)(status)) >= 0)
#endif
#ifndef STATUS_SUCCESS
#  define STATUS_SUCCESS           ((NTSTATUS)0x00000000u)
#endif
#ifndef STATUS_INVALID_PARAMETER
#  define STATUS_INVALID_PARAMETER ((NTSTATUS)0xC000000Du)
#endif
#ifndef STATUS_NO_MEMORY
#  define STATUS_NO_MEMORY         ((NTSTATUS)0xC0000017u)
#endif
#ifndef STATUS_BUFFER_TOO_SMALL
#  define STATUS_BUFFER_TOO_SMALL  ((NTSTATUS)0xC0000023u)
#endif
#ifndef STATUS_NOT_SUPPORTED
#  define STATUS_NOT_SUPPORTED     ((NTSTATUS)0xC00000BBu)
#endif

/* ---- Empty stand-ins for SAL annotations and kernel macros ----------- */

#ifndef _In_
#  define _In_
#endif
#ifndef _In_opt_
#  define _In_opt_
#endif
#ifndef _In_reads_
#  define _In_reads_(n)
#endif
#ifndef _Out_
#  define _Out_
#endif
#ifndef _Out_opt_
#  define _Out_opt_
#endif
#ifndef _Out_writes_
#  define _Out_writes_(n)
#endif
#ifndef _Inout_
#  define _Inout_
#endif
#ifndef _Check_return_
#  define _Check_return_
#endif
#ifndef _Must_inspect_result_
#  define _Must_inspect_result_
#endif
#ifndef _Use_decl_annotations_
#  define _Use_decl_annotations_
#endif
#ifndef _IRQL_requires_
#  define _IRQL_requires_(irql)
#endif
#ifndef _IRQL_requires_max_
#  define _IRQL_requires_max_(irql)
#endif
#ifndef PASSIVE_LEVEL
#  define PASSIVE_LEVEL 0
#endif
#ifndef PAGED_CODE
#  define PAGED_CODE() ((void)0)
#endif
#ifndef APIENTRY
#  define APIENTRY
#endif
#ifndef FIELD_OFFSET
#  define FIELD_OFFSET(type, field) ((LONG)offsetof(type, field))
#endif

/* ---- DXGK_WDDMVERSION (DXGK_DRIVERCAPS.WDDMVersion) ------------------ */
/* Only the values recorded in wddm-facts.md section 1; the WDK has more. */

typedef enum _DXGK_WDDMVERSION {
    DXGKDDI_WDDMv1   = 0x1000,
    DXGKDDI_WDDMv1_2 = 0x1200,
    DXGKDDI_WDDMv1_3 = 0x1300,
    DXGKDDI_WDDMv2   = 0x2000,
    DXGKDDI_WDDMv2_1 = 0x2100,
    DXGKDDI_WDDMv2_2 = 0x2200,
    DXGKDDI_WDDMv2_3 = 0x2300
} DXGK_WDDMVERSION;

/* ---- DXGK_QUERYADAPTERINFOTYPE (section 3.7) ------------------------- */
/* Values 0..20, with the interface-version gates of the WDK. Value 3 goes
 * by the header's name (the docs call it ALLOCATIONGROUP). Later values
 * are left out: the names of 21..26 are not recorded in the facts. */

typedef enum _DXGK_QUERYADAPTERINFOTYPE {
    DXGKQAITYPE_UMDRIVERPRIVATE = 0,
    DXGKQAITYPE_DRIVERCAPS      = 1,
    DXGKQAITYPE_QUERYSEGMENT    = 2
#if SEGC_DXGK_SINCE(WIN7)
    , DXGKQAITYPE_RESERVED      = 3
    , DXGKQAITYPE_QUERYSEGMENT2 = 4
#endif
#if SEGC_DXGK_SINCE(WIN8)
    , DXGKQAITYPE_QUERYSEGMENT3      = 5
    , DXGKQAITYPE_NUMPOWERCOMPONENTS = 6
    , DXGKQAITYPE_POWERCOMPONENTINFO = 7
    , DXGKQAITYPE_PREFERREDGPUNODE   = 8
#endif
#if SEGC_DXGK_SINCE(WDDM1_3)
    , DXGKQAITYPE_POWERCOMPONENTPSTATEINFO = 9
    , DXGKQAITYPE_HISTORYBUFFERPRECISION   = 10
#endif
#if SEGC_DXGK_SINCE(WDDM2_0)
    , DXGKQAITYPE_QUERYSEGMENT4                = 11
    , DXGKQAITYPE_SEGMENTMEMORYSTATE           = 12
    , DXGKQAITYPE_GPUMMUCAPS                   = 13
    , DXGKQAITYPE_PAGETABLELEVELDESC           = 14
    , DXGKQAITYPE_PHYSICALADAPTERCAPS          = 15
    , DXGKQAITYPE_DISPLAY_DRIVERCAPS_EXTENSION = 16
#endif
#if SEGC_DXGK_SINCE(WDDM2_2)
    , DXGKQAITYPE_INTEGRATED_DISPLAY_DESCRIPTOR = 17
    , DXGKQAITYPE_UEFIFRAMEBUFFERRANGES         = 18
    , DXGKQAITYPE_QUERYCOLORIMETRYOVERRIDES     = 19
#endif
#if SEGC_DXGK_SINCE(WDDM2_3)
    , DXGKQAITYPE_DISPLAYID_DESCRIPTOR = 20
#endif
} DXGK_QUERYADAPTERINFOTYPE;

/* ---- Segment ids (section 3.7) ---------------------------------------- */

#if SEGC_DXGK_SINCE(WIN7)
#  define DXGK_SEGMENT_ID_INVALID      0
#  define DXGK_SEGMENT_ID_SYSTEMMEMORY 31
#  define DXGK_SEGMENT_SET_SYSTEMMEMORY 0x80000000u
#endif

/* ---- DXGK_SEGMENTFLAGS (section 2) ------------------------------------ */
/* 32 bits: named one-bit fields from bit 0 upwards, Reserved filling the
 * rest, overlaid by Value. Which bits have names depends on the interface
 * version, as in the WDK; the union is 4 bytes either way. */

typedef union _DXGK_SEGMENTFLAGS {
    SEGC_ANONYMOUS struct {
        UINT Aperture                          : 1; /* bit 0 */
        UINT Agp                               : 1; /* bit 1 */
        UINT CpuVisible                        : 1; /* bit 2 */
        UINT UseBanking                        : 1; /* bit 3 */
        UINT CacheCoherent                     : 1; /* bit 4 */
        UINT PitchAlignment                    : 1; /* bit 5 */
        UINT PopulatedFromSystemMemory         : 1; /* bit 6 */
        UINT PreservedDuringStandby            : 1; /* bit 7 */
        UINT PreservedDuringHibernate          : 1; /* bit 8 */
        UINT PartiallyPreservedDuringHibernate : 1; /* bit 9 */
#if SEGC_DXGK_SINCE(WIN8)
        UINT DirectFlip                        : 1; /* bit 10 */
#  if SEGC_DXGK_SINCE(WDDM2_0)
        UINT Use64KBPages                      : 1; /* bit 11 */
        UINT ReservedSysMem                    : 1; /* bit 12 */
        UINT SupportsCpuHostAperture           : 1; /* bit 13 */
        UINT SupportsCachedCpuHostAperture     : 1; /* bit 14 */
        UINT ApplicationTarget                 : 1; /* bit 15 */
        UINT VprSupported                      : 1; /* bit 16 */
        UINT VprPreservedDuringStandby         : 1; /* bit 17 */
        UINT EncryptedPagingSupported          : 1; /* bit 18 */
        UINT LocalBudgetGroup                  : 1; /* bit 19 */
        UINT NonLocalBudgetGroup               : 1; /* bit 20 */
#    if SEGC_DXGK_SINCE(WDDM2_9)
        UINT PopulatedByReservedDDRByFirmware  : 1; /* bit 21 */
        UINT Reserved                          : 10; /* bits 22..31 */
#    else
        UINT Reserved                          : 11; /* bits 21..31 */
#    endif
#  else
        UINT Reserved                          : 21; /* bits 11..31 */
#  endif
#else
        UINT Reserved                          : 22; /* bits 10..31 */
#endif
    };
    UINT Value;
} DXGK_SEGMENTFLAGS;

/* ---- Segment descriptors (sections 3.1, 3.2, 3.6) -------------------- */

/* Legacy form, answered for DXGKQAITYPE_QUERYSEGMENT. Flags is the LAST
 * member here. */
typedef struct _DXGK_SEGMENTDESCRIPTOR {
    PHYSICAL_ADDRESS  BaseAddress;
    PHYSICAL_ADDRESS  CpuTranslatedAddress;
    SIZE_T            Size;
    UINT              NbOfBanks;
    SIZE_T           *pBankRangeTable;
    SIZE_T            CommitLimit;
    DXGK_SEGMENTFLAGS Flags;
} DXGK_SEGMENTDESCRIPTOR;

#if SEGC_DXGK_SINCE(WIN8)
/* WDDM 1.2+ form, answered for DXGKQAITYPE_QUERYSEGMENT3. Flags is the
 * FIRST member here. */
typedef struct _DXGK_SEGMENTDESCRIPTOR3 {
    DXGK_SEGMENTFLAGS Flags;
    PHYSICAL_ADDRESS  BaseAddress;
    PHYSICAL_ADDRESS  CpuTranslatedAddress;
    SIZE_T            Size;
    UINT              NbOfBanks;
    SIZE_T           *pBankRangeTable;
    SIZE_T            CommitLimit;
    SIZE_T            SystemMemoryEndAddress;
    SIZE_T            Reserved;
} DXGK_SEGMENTDESCRIPTOR3;
#endif

#if SEGC_DXGK_SINCE(WDDM2_0)
/* CPU window of a segment with SupportsCpuHostAperture. */
typedef struct _DXGK_CPUHOSTAPERTURE {
    UINT64 PhysicalAddress;
    UINT32 SizeInPages;
} DXGK_CPUHOSTAPERTURE;

/* WDDM 2.x form, answered for DXGKQAITYPE_QUERYSEGMENT4. It has no bank
 * members; the OS chooses the array stride. */
typedef struct _DXGK_SEGMENTDESCRIPTOR4 {
    DXGK_SEGMENTFLAGS Flags;
    PHYSICAL_ADDRESS  BaseAddress;
    SIZE_T            Size;
    SIZE_T            CommitLimit;
    SIZE_T            SystemMemoryEndAddress;
    SEGC_ANONYMOUS union {
        PHYSICAL_ADDRESS     CpuTranslatedAddress;
        DXGK_CPUHOSTAPERTURE CpuHostAperture;
    };
    UINT              NumInvalidMemoryRanges;
    SIZE_T            VprRangeStartOffset;
    SIZE_T            VprRangeSize;
    UINT              VprAlignment;
    UINT              NumVprSupported;
    UINT              VprReserveSize;
#  if SEGC_DXGK_SINCE(WDDM2_2)
    UINT              NumUEFIFrameBufferRanges;
#  endif
} DXGK_SEGMENTDESCRIPTOR4;
#endif

/* ---- Allocation placement (allocation-facts.md sections 2 and 3.1) --- */
/* As for DXGK_SEGMENTFLAGS, the one-word types are unions here (the WDK
 * wraps the same union in a struct): the members read the same, and the
 * declarations stay valid C99. */

/* PreferredSegment: five slots, highest priority first. Slot k holds a
 * 1-based segment id (0: no preference) in 5 bits at bit 6k and its
 * direction at bit 6k+5; bits 30..31 are reserved. */
typedef union _DXGK_SEGMENTPREFERENCE {
    SEGC_ANONYMOUS struct {
        UINT SegmentId0 : 5;
        UINT Direction0 : 1;
        UINT SegmentId1 : 5;
        UINT Direction1 : 1;
        UINT SegmentId2 : 5;
        UINT Direction2 : 1;
        UINT SegmentId3 : 5;
        UINT Direction3 : 1;
        UINT SegmentId4 : 5;
        UINT Direction4 : 1;
        UINT Reserved   : 2;
    };
    UINT Value;
} DXGK_SEGMENTPREFERENCE, D3DDDI_SEGMENTPREFERENCE;

/* HintedBank: four slots of the first preferred segment's banks. Slot k
 * holds a 1-based bank id (0: no hint) in 7 bits at bit 8k and its
 * direction (1: from high addresses down) at bit 8k+7. */
typedef union _DXGK_SEGMENTBANKPREFERENCE {
    SEGC_ANONYMOUS struct {
        UINT Bank0      : 7;
        UINT Direction0 : 1;
        UINT Bank1      : 7;
        UINT Direction1 : 1;
        UINT Bank2      : 7;
        UINT Direction2 : 1;
        UINT Bank3      : 7;
        UINT Direction3 : 1;
    };
    UINT Value;
} DXGK_SEGMENTBANKPREFERENCE;

/* Flags of an allocation for drivers before WDDM 2.0. Bits 15..18 are
 * named from WDDM 2.0; bits 19..31 are reserved, and left 0. */
typedef union _DXGK_ALLOCATIONINFOFLAGS {
    SEGC_ANONYMOUS struct {
        UINT CpuVisible           : 1; /* bit 0 */
        UINT PermanentSysMem      : 1;
        UINT Cached               : 1;
        UINT Protected            : 1;
        UINT ExistingSysMem       : 1;
        UINT ExistingKernelSysMem : 1;
        UINT FromEndOfSegment     : 1;
        UINT Swizzled             : 1; /* bit 7 */
        UINT Overlay              : 1;
        UINT Capture              : 1;
        UINT UseAlternateVA       : 1; /* bit 10 */
        UINT SynchronousPaging    : 1;
        UINT LinkMirrored         : 1;
        UINT LinkInstanced        : 1; /* bit 13 */
        UINT HistoryBuffer        : 1; /* bit 14 */
#  if SEGC_DXGK_SINCE(WDDM2_0)
        UINT AccessedPhysically            : 1; /* bit 15 */
        UINT ExplicitResidencyNotification : 1;
        UINT HardwareProtected             : 1;
        UINT CpuVisibleOnDemand            : 1; /* bit 18 */
#  else
        UINT Reserved                      : 4; /* bits 15..18 */
#  endif
        UINT ReservedHigh         : 13; /* bits 19..31 */
    };
    UINT Value;
} DXGK_ALLOCATIONINFOFLAGS;

#if SEGC_DXGK_SINCE(WDDM2_0)
/* The same 32 bits as seen by WDDM 2.x drivers: bits 7, 10, 11, 12 and 13
 * mean other things than in DXGK_ALLOCATIONINFOFLAGS. */
typedef union _DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 {
    SEGC_ANONYMOUS struct {
        UINT CpuVisible                    : 1; /* bit 0 */
        UINT PermanentSysMem               : 1;
        UINT Cached                        : 1;
        UINT Protected                     : 1;
        UINT ExistingSysMem                : 1;
        UINT ExistingKernelSysMem          : 1;
        UINT FromEndOfSegment              : 1;
        UINT DisableLargePageMapping       : 1; /* bit 7 */
        UINT Overlay                       : 1;
        UINT Capture                       : 1;
#    if SEGC_DXGK_SINCE(WDDM2_1)
        UINT CreateInVpr                   : 1; /* bit 10 */
#    else
        UINT Reserved00                    : 1;
#    endif
        UINT ReservedBit11                 : 1;
        UINT Reserved02                    : 1;
#    if SEGC_DXGK_SINCE(WDDM2_9)
        UINT MapApertureCpuVisible         : 1; /* bit 13 */
#    else
        UINT Reserved03                    : 1;
#    endif
        UINT HistoryBuffer                 : 1; /* bit 14 */
        UINT AccessedPhysically            : 1;
        UINT ExplicitResidencyNotification : 1;
        UINT HardwareProtected             : 1;
        UINT CpuVisibleOnDemand            : 1; /* bit 18 */
        UINT ReservedHigh                  : 13; /* bits 19..31 */
    };
    UINT Value;
} DXGK_ALLOCATIONINFOFLAGS_WDDM2_0;
#endif

/* Flags2 exists from WDDM 3.0 in 64-bit builds only; it fills what was
 * the tail padding of DXGK_ALLOCATIONINFO, whose size does not change. */
#if SEGC_DXGK_SINCE(WDDM3_0) && (defined(_WIN64) || defined(__x86_64__) || defined(__aarch64__))
#  define SEGC_DXGK_ALLOCATIONINFO_FLAGS2 1
typedef union _DXGK_ALLOCATIONINFOFLAGS2 {
    SEGC_ANONYMOUS struct {
        UINT ShareBackingStoreWithKmd : 1; /* bit 0 */
        UINT Reserved                 : 31;
    };
    UINT Value;
} DXGK_ALLOCATIONINFOFLAGS2;
#else
#  define SEGC_DXGK_ALLOCATIONINFO_FLAGS2 0
#endif

/* What the UMD says about an allocation's use; segc never reads it. */
typedef struct _DXGK_ALLOCATIONUSAGEHINT DXGK_ALLOCATIONUSAGEHINT;

/* One allocation of DxgkDdiCreateAllocation (and of the standard
 * allocations): the driver fills everything but the private data it is
 * given. 88 bytes on x64 at every interface version, 60 on x86. */
typedef struct _DXGK_ALLOCATIONINFO {
    VOID                      *pPrivateDriverData;
    UINT                       PrivateDriverDataSize;
    UINT                       Alignment;
    SIZE_T                     Size;
    SIZE_T                     PitchAlignedSize;
    DXGK_SEGMENTBANKPREFERENCE HintedBank;
    DXGK_SEGMENTPREFERENCE     PreferredSegment;
    UINT                       SupportedReadSegmentSet;
    UINT                       SupportedWriteSegmentSet;
    UINT                       EvictionSegmentSet;
    SEGC_ANONYMOUS union {
        UINT MaximumRenamingListLength; /* before WDDM 2.0 */
        UINT PhysicalAdapterIndex;      /* from WDDM 2.0 */
    };
    HANDLE                     hAllocation;
    SEGC_ANONYMOUS union {
        DXGK_ALLOCATIONINFOFLAGS         Flags;
#if SEGC_DXGK_SINCE(WDDM2_0)
        DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 FlagsWddm2;
#endif
    };
    DXGK_ALLOCATIONUSAGEHINT  *pAllocationUsageHint;
    UINT                       AllocationPriority;
#if SEGC_DXGK_ALLOCATIONINFO_FLAGS2
    DXGK_ALLOCATIONINFOFLAGS2  Flags2;
#endif
} DXGK_ALLOCATIONINFO;

/* ---- Query input and output blocks (sections 3.3, 3.4, 3.6) ---------- */

/* pInputData of QUERYSEGMENT and QUERYSEGMENT3: the AGP aperture as the
 * OS sees it (all zero when there is none). */
typedef struct _DXGK_QUERYSEGMENTIN {
    PHYSICAL_ADDRESS  AgpApertureBase;
    LARGE_INTEGER     AgpApertureSize;
    DXGK_SEGMENTFLAGS AgpFlags;
} DXGK_QUERYSEGMENTIN;

/* pOutputData of QUERYSEGMENT. */
typedef struct _DXGK_QUERYSEGMENTOUT {
    UINT                    NbSegment;
    DXGK_SEGMENTDESCRIPTOR *pSegmentDescriptor;
    UINT                    PagingBufferSegmentId;
    UINT                    PagingBufferSize;
    UINT                    PagingBufferPrivateDataSize;
} DXGK_QUERYSEGMENTOUT;

#if SEGC_DXGK_SINCE(WIN8)
/* pOutputData of QUERYSEGMENT3: same shape, newer descriptor type. */
typedef struct _DXGK_QUERYSEGMENTOUT3 {
    UINT                     NbSegment;
    DXGK_SEGMENTDESCRIPTOR3 *pSegmentDescriptor;
    UINT                     PagingBufferSegmentId;
    UINT                     PagingBufferSize;
    UINT                     PagingBufferPrivateDataSize;
} DXGK_QUERYSEGMENTOUT3;
#endif

#if SEGC_DXGK_SINCE(WDDM2_0)
/* pInputData of QUERYSEGMENT4. */
typedef struct _DXGK_QUERYSEGMENTIN4 {
    UINT PhysicalAdapterIndex;
} DXGK_QUERYSEGMENTIN4;

/* pOutputData of QUERYSEGMENT4: descriptors are SegmentDescriptorStride
 * bytes apart, so the array is addressed through a byte pointer. */
typedef struct _DXGK_QUERYSEGMENTOUT4 {
    UINT   NbSegment;
    BYTE  *pSegmentDescriptor;
    UINT   PagingBufferSegmentId;
    UINT   PagingBufferSize;
    UINT   PagingBufferPrivateDataSize;
    SIZE_T SegmentDescriptorStride;
} DXGK_QUERYSEGMENTOUT4;
#endif

/* ---- The DxgkDdiQueryAdapterInfo argument (section 3.5) -------------- */

#if SEGC_DXGK_SINCE(WDDM2_2)
typedef union _DXGK_QUERYADAPTERINFOFLAGS {
    SEGC_ANONYMOUS struct {
        UINT VirtualMachineData   : 1;
        UINT SecureVirtualMachine : 1;
        UINT Reserved             : 30;
    };
    UINT Value;
} DXGK_QUERYADAPTERINFOFLAGS;
#endif

typedef struct _DXGKARG_QUERYADAPTERINFO {
    DXGK_QUERYADAPTERINFOTYPE  Type;
    VOID                      *pInputData;
    UINT                       InputDataSize;
    VOID                      *pOutputData;
    UINT                       OutputDataSize;
#if SEGC_DXGK_SINCE(WDDM2_2)
    DXGK_QUERYADAPTERINFOFLAGS Flags;
#endif
#if SEGC_DXGK_SINCE(WDDM2_4)
    HANDLE                     hKmdProcessHandle;
#endif
} DXGKARG_QUERYADAPTERINFO;

typedef DXGKARG_QUERYADAPTERINFO       *PDXGKARG_QUERYADAPTERINFO;
typedef const DXGKARG_QUERYADAPTERINFO *IN_CONST_PDXGKARG_QUERYADAPTERINFO;
typedef const HANDLE                    IN_CONST_HANDLE;

/* The DDI's function type and pointer type (section 4). */
typedef _Check_return_ _IRQL_requires_(PASSIVE_LEVEL)
NTSTATUS APIENTRY DXGKDDI_QUERYADAPTERINFO(
    _In_ IN_CONST_HANDLE hAdapter,
    _In_ IN_CONST_PDXGKARG_QUERYADAPTERINFO pQueryAdapterInfo);
typedef DXGKDDI_QUERYADAPTERINFO *PDXGKDDI_QUERYADAPTERINFO;

#if defined(_MSC_VER)
#  pragma warning(pop)
#endif

/* ---- Layout pins ----------------------------------------------------- */
/* Tags are unique in the translation unit; they name the C99 typedefs. */

/* Independent of pointer width. */
SEGC_STATIC_ASSERT(sizeof(BYTE) == 1, dxgk_byte_size);
SEGC_STATIC_ASSERT(sizeof(BOOLEAN) == 1, dxgk_boolean_size);
SEGC_STATIC_ASSERT(sizeof(UINT) == 4, dxgk_uint_size);
SEGC_STATIC_ASSERT(sizeof(UINT8) == 1, dxgk_uint8_size);
SEGC_STATIC_ASSERT(sizeof(UINT16) == 2, dxgk_uint16_size);
SEGC_STATIC_ASSERT(sizeof(UINT32) == 4, dxgk_uint32_size);
SEGC_STATIC_ASSERT(sizeof(UINT64) == 8, dxgk_uint64_size);
SEGC_STATIC_ASSERT(sizeof(ULONG) == 4, dxgk_ulong_size);
SEGC_STATIC_ASSERT(sizeof(LONG) == 4, dxgk_long_size);
SEGC_STATIC_ASSERT(sizeof(DWORD) == 4, dxgk_dword_size);
SEGC_STATIC_ASSERT(sizeof(LONGLONG) == 8, dxgk_longlong_size);
SEGC_STATIC_ASSERT(sizeof(ULONGLONG) == 8, dxgk_ulonglong_size);
SEGC_STATIC_ASSERT(sizeof(NTSTATUS) == 4, dxgk_ntstatus_size);
SEGC_STATIC_ASSERT(sizeof(SIZE_T) == sizeof(void *), dxgk_size_t_size);
SEGC_STATIC_ASSERT(sizeof(HANDLE) == sizeof(void *), dxgk_handle_size);
SEGC_STATIC_ASSERT(sizeof(LARGE_INTEGER) == 8, dxgk_large_integer_size);
SEGC_STATIC_ASSERT(offsetof(LARGE_INTEGER, LowPart) == 0, dxgk_li_low);
SEGC_STATIC_ASSERT(offsetof(LARGE_INTEGER, HighPart) == 4, dxgk_li_high);
SEGC_STATIC_ASSERT(offsetof(LARGE_INTEGER, u) == 0, dxgk_li_u);
SEGC_STATIC_ASSERT(offsetof(LARGE_INTEGER, QuadPart) == 0, dxgk_li_quad);
SEGC_STATIC_ASSERT(sizeof(PHYSICAL_ADDRESS) == 8, dxgk_pa_size);
SEGC_STATIC_ASSERT(sizeof(DXGK_SEGMENTFLAGS) == 4, dxgk_flags_size);
SEGC_STATIC_ASSERT(sizeof(DXGK_QUERYADAPTERINFOTYPE) == 4, dxgk_qaitype_size);

/* 3.1 DXGK_SEGMENTDESCRIPTOR: 56 bytes, Flags last. */
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_SEGMENTDESCRIPTOR) == 56, dxgk_d1_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR, BaseAddress) == 0, dxgk_d1_base);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR, CpuTranslatedAddress) == 8, dxgk_d1_cpu);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR, Size) == 16, dxgk_d1_sz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR, NbOfBanks) == 24, dxgk_d1_nbanks);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR, pBankRangeTable) == 32, dxgk_d1_banks);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR, CommitLimit) == 40, dxgk_d1_commit);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR, Flags) == 48, dxgk_d1_flags);

#if SEGC_DXGK_SINCE(WIN8)
/* 3.2 DXGK_SEGMENTDESCRIPTOR3: 72 bytes, Flags first. */
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_SEGMENTDESCRIPTOR3) == 72, dxgk_d3_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, Flags) == 0, dxgk_d3_flags);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, BaseAddress) == 8, dxgk_d3_base);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, CpuTranslatedAddress) == 16, dxgk_d3_cpu);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, Size) == 24, dxgk_d3_sz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, NbOfBanks) == 32, dxgk_d3_nbanks);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, pBankRangeTable) == 40, dxgk_d3_banks);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, CommitLimit) == 48, dxgk_d3_commit);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, SystemMemoryEndAddress) == 56, dxgk_d3_sysend);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR3, Reserved) == 64, dxgk_d3_reserved);
#endif

/* 3.3 DXGK_QUERYSEGMENTIN: 24 bytes. */
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_QUERYSEGMENTIN) == 24, dxgk_in_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTIN, AgpApertureBase) == 0, dxgk_in_base);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTIN, AgpApertureSize) == 8, dxgk_in_sz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTIN, AgpFlags) == 16, dxgk_in_flags);

/* 3.4 DXGK_QUERYSEGMENTOUT and DXGK_QUERYSEGMENTOUT3: 32 bytes each. */
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_QUERYSEGMENTOUT) == 32, dxgk_out_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT, NbSegment) == 0, dxgk_out_nb);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT, pSegmentDescriptor) == 8, dxgk_out_desc);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT, PagingBufferSegmentId) == 16, dxgk_out_pid);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT, PagingBufferSize) == 20, dxgk_out_psz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT, PagingBufferPrivateDataSize) == 24, dxgk_out_ppriv);
#if SEGC_DXGK_SINCE(WIN8)
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_QUERYSEGMENTOUT3) == 32, dxgk_out3_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT3, NbSegment) == 0, dxgk_out3_nb);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT3, pSegmentDescriptor) == 8, dxgk_out3_desc);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT3, PagingBufferSegmentId) == 16, dxgk_out3_pid);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT3, PagingBufferSize) == 20, dxgk_out3_psz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT3, PagingBufferPrivateDataSize) == 24, dxgk_out3_ppriv);
#endif

/* 3.5 DXGKARG_QUERYADAPTERINFO: 40 bytes before WDDM 2.4, 48 from 2.4. */
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGKARG_QUERYADAPTERINFO, Type) == 0, dxgk_qai_type);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGKARG_QUERYADAPTERINFO, pInputData) == 8, dxgk_qai_in);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGKARG_QUERYADAPTERINFO, InputDataSize) == 16, dxgk_qai_insz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGKARG_QUERYADAPTERINFO, pOutputData) == 24, dxgk_qai_out);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGKARG_QUERYADAPTERINFO, OutputDataSize) == 32, dxgk_qai_outsz);
#if SEGC_DXGK_SINCE(WDDM2_2)
SEGC_STATIC_ASSERT(sizeof(DXGK_QUERYADAPTERINFOFLAGS) == 4, dxgk_qaiflags_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGKARG_QUERYADAPTERINFO, Flags) == 36, dxgk_qai_flags);
#endif
#if SEGC_DXGK_SINCE(WDDM2_4)
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGKARG_QUERYADAPTERINFO, hKmdProcessHandle) == 40, dxgk_qai_kmdproc);
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGKARG_QUERYADAPTERINFO) == 48, dxgk_qai_size);
#else
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGKARG_QUERYADAPTERINFO) == 40, dxgk_qai_size);
#endif

#if SEGC_DXGK_SINCE(WDDM2_0)
/* 3.6 The QUERYSEGMENT4 family. */
SEGC_STATIC_ASSERT(sizeof(DXGK_QUERYSEGMENTIN4) == 4, dxgk_in4_size);
SEGC_STATIC_ASSERT(offsetof(DXGK_QUERYSEGMENTIN4, PhysicalAdapterIndex) == 0, dxgk_in4_index);
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_CPUHOSTAPERTURE) == 16, dxgk_cha_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_CPUHOSTAPERTURE, PhysicalAddress) == 0, dxgk_cha_pa);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_CPUHOSTAPERTURE, SizeInPages) == 8, dxgk_cha_pages);
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_QUERYSEGMENTOUT4) == 40, dxgk_out4_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT4, NbSegment) == 0, dxgk_out4_nb);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT4, pSegmentDescriptor) == 8, dxgk_out4_desc);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT4, PagingBufferSegmentId) == 16, dxgk_out4_pid);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT4, PagingBufferSize) == 20, dxgk_out4_psz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT4, PagingBufferPrivateDataSize) == 24, dxgk_out4_ppriv);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_QUERYSEGMENTOUT4, SegmentDescriptorStride) == 32, dxgk_out4_stride);
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_SEGMENTDESCRIPTOR4) == 96, dxgk_d4_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, Flags) == 0, dxgk_d4_flags);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, BaseAddress) == 8, dxgk_d4_base);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, Size) == 16, dxgk_d4_sz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, CommitLimit) == 24, dxgk_d4_commit);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, SystemMemoryEndAddress) == 32, dxgk_d4_sysend);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, CpuTranslatedAddress) == 40, dxgk_d4_cpu);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, CpuHostAperture) == 40, dxgk_d4_host);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, NumInvalidMemoryRanges) == 56, dxgk_d4_invalid);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, VprRangeStartOffset) == 64, dxgk_d4_vprstart);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, VprRangeSize) == 72, dxgk_d4_vprsize);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, VprAlignment) == 80, dxgk_d4_vpralign);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, NumVprSupported) == 84, dxgk_d4_vprnum);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, VprReserveSize) == 88, dxgk_d4_vprres);
#  if SEGC_DXGK_SINCE(WDDM2_2)
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_SEGMENTDESCRIPTOR4, NumUEFIFrameBufferRanges) == 92, dxgk_d4_uefi);
#  endif
#endif

/* Allocation placement (allocation-facts.md sections 2.1, 2.2, 3.1). */
SEGC_STATIC_ASSERT(sizeof(DXGK_SEGMENTPREFERENCE) == 4, dxgk_segpref_size);
SEGC_STATIC_ASSERT(sizeof(DXGK_SEGMENTBANKPREFERENCE) == 4, dxgk_bankpref_size);
SEGC_STATIC_ASSERT(sizeof(DXGK_ALLOCATIONINFOFLAGS) == 4, dxgk_aiflags_size);
SEGC_STATIC_ASSERT_PTR64(sizeof(DXGK_ALLOCATIONINFO) == 88, dxgk_ai_size);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, pPrivateDriverData) == 0, dxgk_ai_priv);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, PrivateDriverDataSize) == 8, dxgk_ai_privsz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, Alignment) == 12, dxgk_ai_align);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, Size) == 16, dxgk_ai_sz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, PitchAlignedSize) == 24, dxgk_ai_pitchsz);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, HintedBank) == 32, dxgk_ai_bank);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, PreferredSegment) == 36, dxgk_ai_pref);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, SupportedReadSegmentSet) == 40, dxgk_ai_read);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, SupportedWriteSegmentSet) == 44, dxgk_ai_write);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, EvictionSegmentSet) == 48, dxgk_ai_evict);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, MaximumRenamingListLength) == 52, dxgk_ai_renaming);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, hAllocation) == 56, dxgk_ai_handle);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, Flags) == 64, dxgk_ai_flags);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, pAllocationUsageHint) == 72, dxgk_ai_hint);
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, AllocationPriority) == 80, dxgk_ai_priority);
#if SEGC_DXGK_ALLOCATIONINFO_FLAGS2
SEGC_STATIC_ASSERT_PTR64(offsetof(DXGK_ALLOCATIONINFO, Flags2) == 84, dxgk_ai_flags2);
#endif
SEGC_STATIC_ASSERT_PTR32(sizeof(DXGK_ALLOCATIONINFO) == 60, dxgk_ai32_size);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, Alignment) == 8, dxgk_ai32_align);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, Size) == 12, dxgk_ai32_sz);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, PitchAlignedSize) == 16, dxgk_ai32_pitchsz);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, HintedBank) == 20, dxgk_ai32_bank);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, PreferredSegment) == 24, dxgk_ai32_pref);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, SupportedReadSegmentSet) == 28, dxgk_ai32_read);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, SupportedWriteSegmentSet) == 32, dxgk_ai32_write);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, EvictionSegmentSet) == 36, dxgk_ai32_evict);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, MaximumRenamingListLength) == 40, dxgk_ai32_renaming);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, hAllocation) == 44, dxgk_ai32_handle);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, Flags) == 48, dxgk_ai32_flags);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, pAllocationUsageHint) == 52, dxgk_ai32_hint);
SEGC_STATIC_ASSERT_PTR32(offsetof(DXGK_ALLOCATIONINFO, AllocationPriority) == 56, dxgk_ai32_priority);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SEGC_USE_WDK */

#endif /* SEGC_DXGK_H */
