/* SPDX-License-Identifier: MIT */
/*
 * Compile-only check for templates/segc_dxgk.h, driven by compile-dxgk.sh.
 * It names every type, member, constant and macro the header provides, so
 * that every compiler and language mode in the script has seen all of it.
 * It is never linked or run.
 */
#include "segc_dxgk.h"

/* The SEGC_FLAG_* masks must be usable in the preprocessor too. */
#if (SEGC_FLAG_APERTURE | SEGC_FLAG_POPULATED_BY_RESERVED_DDR_BY_FIRMWARE) != 0x00200001u
#error "SEGC_FLAG_* masks are not preprocessor constants"
#endif

SEGC_STATIC_ASSERT((SEGC_FLAG_RESERVED_MASK & 0x003FFFFFu) == 0u, touch_reserved_disjoint);

/* A handler with the DDI's signature and annotations. */
DXGKDDI_QUERYADAPTERINFO TouchQueryAdapterInfo;

_Check_return_ _IRQL_requires_(PASSIVE_LEVEL)
NTSTATUS APIENTRY TouchQueryAdapterInfo(
    _In_ IN_CONST_HANDLE hAdapter,
    _In_ IN_CONST_PDXGKARG_QUERYADAPTERINFO pQueryAdapterInfo)
{
    PAGED_CODE();
    SEGC_UNUSED(hAdapter);
    if (pQueryAdapterInfo == NULL) {
        return STATUS_INVALID_PARAMETER;
    }
    switch (pQueryAdapterInfo->Type) {
    case DXGKQAITYPE_QUERYSEGMENT:
        return STATUS_BUFFER_TOO_SMALL;
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN8
    case DXGKQAITYPE_QUERYSEGMENT3:
        return STATUS_NO_MEMORY;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
    case DXGKQAITYPE_QUERYSEGMENT4:
        return STATUS_SUCCESS;
#endif
    default:
        return STATUS_NOT_SUPPORTED;
    }
}

PDXGKDDI_QUERYADAPTERINFO touch_ddi_pointer = TouchQueryAdapterInfo;

static SIZE_T touch_banks[2] = { 0x1000, 0x2000 };

ULONGLONG touch_everything(_Inout_ DXGKARG_QUERYADAPTERINFO *qai,
                           _Out_writes_(n) BYTE *out, _In_ UINT n,
                           _In_opt_ PVOID opt);

_Must_inspect_result_
ULONGLONG touch_everything(_Inout_ DXGKARG_QUERYADAPTERINFO *qai,
                           _Out_writes_(n) BYTE *out, _In_ UINT n,
                           _In_opt_ PVOID opt)
{
    BOOLEAN  b = TRUE;
    ULONG    ul = 1u;
    LONG     l = -1;
    DWORD    dw = 2u;
    UINT32   u32 = 3u;
    UINT64   u64 = 4u;
    LONGLONG ll = -5;
    HANDLE   h = opt;
    NTSTATUS st = STATUS_SUCCESS;
    LARGE_INTEGER li;
    PHYSICAL_ADDRESS pa;
    DXGK_SEGMENTFLAGS f;
    DXGK_SEGMENTDESCRIPTOR d1;
    DXGK_QUERYSEGMENTIN in;
    DXGK_QUERYSEGMENTOUT out1;
    DXGK_WDDMVERSION wv = DXGKDDI_WDDMv1_3;
    ULONGLONG acc = 0;

    li.QuadPart = 0x100000000LL;
    li.LowPart = 7u;
    li.HighPart = 1;
    li.u.LowPart = li.LowPart;
    li.u.HighPart = li.HighPart;
    pa = li;

    f.Value = 0u;
    f.Aperture = 1u;
    f.Agp = 0u;
    f.CpuVisible = 1u;
    f.UseBanking = 1u;
    f.CacheCoherent = 1u;
    f.PitchAlignment = 1u;
    f.PopulatedFromSystemMemory = 1u;
    f.PreservedDuringStandby = 1u;
    f.PreservedDuringHibernate = 1u;
    f.PartiallyPreservedDuringHibernate = 1u;
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN8
    f.DirectFlip = 1u;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
    f.Use64KBPages = 1u;
    f.ReservedSysMem = 0u;
    f.SupportsCpuHostAperture = 1u;
    f.SupportsCachedCpuHostAperture = 1u;
    f.ApplicationTarget = 1u;
    f.VprSupported = 1u;
    f.VprPreservedDuringStandby = 1u;
    f.EncryptedPagingSupported = 1u;
    f.LocalBudgetGroup = 1u;
    f.NonLocalBudgetGroup = 1u;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_9
    f.PopulatedByReservedDDRByFirmware = 1u;
#endif
    f.Reserved = 0u;
    acc += f.Value & ~SEGC_FLAG_RESERVED_MASK;

    d1.BaseAddress = pa;
    d1.CpuTranslatedAddress.QuadPart = 0;
    d1.Size = (SIZE_T)0x10000;
    d1.NbOfBanks = 2u;
    d1.pBankRangeTable = touch_banks;
    d1.CommitLimit = d1.Size;
    d1.Flags = f;
    acc += d1.Size + d1.Flags.Value;

    in.AgpApertureBase.QuadPart = 0;
    in.AgpApertureSize.QuadPart = 0;
    in.AgpFlags.Value = 0u;
    acc += (ULONGLONG)in.AgpApertureSize.QuadPart + in.AgpFlags.Value;

    out1.NbSegment = 1u;
    out1.pSegmentDescriptor = &d1;
    out1.PagingBufferSegmentId = 0u;
    out1.PagingBufferSize = 4096u;
    out1.PagingBufferPrivateDataSize = 0u;
    acc += out1.NbSegment + out1.PagingBufferSize;

#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN8
    {
        DXGK_SEGMENTDESCRIPTOR3 d3;
        DXGK_QUERYSEGMENTOUT3 out3;
        d3.Flags.Value = SEGC_FLAG_APERTURE | SEGC_FLAG_CACHE_COHERENT;
        d3.BaseAddress.QuadPart = 0xC0000000LL;
        d3.CpuTranslatedAddress = pa;
        d3.Size = (SIZE_T)0x400000;
        d3.NbOfBanks = 0u;
        d3.pBankRangeTable = NULL;
        d3.CommitLimit = d3.Size;
        d3.SystemMemoryEndAddress = 0u;
        d3.Reserved = 0u;
        out3.NbSegment = 1u;
        out3.pSegmentDescriptor = &d3;
        out3.PagingBufferSegmentId = 1u;
        out3.PagingBufferSize = 4096u;
        out3.PagingBufferPrivateDataSize = 272u;
        acc += d3.Flags.Aperture + out3.pSegmentDescriptor->Size;
    }
#endif

#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN7
    acc += DXGK_SEGMENT_ID_INVALID + DXGK_SEGMENT_ID_SYSTEMMEMORY + DXGK_SEGMENT_SET_SYSTEMMEMORY;
#endif

#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0
    {
        DXGK_QUERYSEGMENTIN4 in4;
        DXGK_QUERYSEGMENTOUT4 out4;
        DXGK_SEGMENTDESCRIPTOR4 d4;
        DXGK_CPUHOSTAPERTURE cha;
        in4.PhysicalAdapterIndex = 0u;
        cha.PhysicalAddress = 0x80000000u;
        cha.SizeInPages = 16u;
        d4.Flags.Value = SEGC_FLAG_SUPPORTS_CPU_HOST_APERTURE;
        d4.BaseAddress.QuadPart = 0;
        d4.Size = (SIZE_T)0x10000;
        d4.CommitLimit = d4.Size;
        d4.SystemMemoryEndAddress = 0u;
        d4.CpuTranslatedAddress.QuadPart = 0;
        d4.CpuHostAperture = cha;
        d4.NumInvalidMemoryRanges = 0u;
        d4.VprRangeStartOffset = 0u;
        d4.VprRangeSize = 0u;
        d4.VprAlignment = 0u;
        d4.NumVprSupported = 0u;
        d4.VprReserveSize = 0u;
#  if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_2
        d4.NumUEFIFrameBufferRanges = 0u;
#  endif
        out4.NbSegment = 1u;
        out4.pSegmentDescriptor = (BYTE *)&d4;
        out4.PagingBufferSegmentId = 0u;
        out4.PagingBufferSize = 4096u;
        out4.PagingBufferPrivateDataSize = 0u;
        out4.SegmentDescriptorStride = sizeof(d4);
        acc += in4.PhysicalAdapterIndex + out4.SegmentDescriptorStride + d4.CpuHostAperture.SizeInPages;
    }
#endif

    qai->Type = DXGKQAITYPE_DRIVERCAPS;
    qai->pInputData = NULL;
    qai->InputDataSize = 0u;
    qai->pOutputData = out;
    qai->OutputDataSize = n;
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_2
    qai->Flags.Value = 0u;
    qai->Flags.VirtualMachineData = 0u;
    qai->Flags.SecureVirtualMachine = 0u;
    qai->Flags.Reserved = 0u;
#endif
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_4
    qai->hKmdProcessHandle = h;
#else
    SEGC_UNUSED(h);
#endif
    if (n > 0u) {
        out[0] = (BYTE)b;
    }

    st = (st == STATUS_SUCCESS && qai->pOutputData != NULL) ? STATUS_SUCCESS : STATUS_NO_MEMORY;
    if (!NT_SUCCESS(st) || FALSE) {
        return 0u;
    }
    acc += ul + (ULONGLONG)(l + 1) + dw + u32 + u64 + (ULONGLONG)(ll + 5) + (ULONGLONG)wv;
    acc += (ULONGLONG)FIELD_OFFSET(DXGK_SEGMENTDESCRIPTOR, Flags);
    acc += (ULONGLONG)DXGKDDI_INTERFACE_VERSION;
    return acc;
}
