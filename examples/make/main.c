/* SPDX-License-Identifier: MIT */
/* main.c - the driver side of the Make example, run on the build machine.
 *
 * In a display miniport, DxgkDdiQueryAdapterInfo hands
 * DXGKQAITYPE_QUERYSEGMENT3 to the generated ExampleMakeQuerySegment3.  Here
 * main() stands in for the OS and asks twice, as the OS does: first for the
 * number of segments, then for their descriptors.  Without the WDK,
 * segc_dxgk.h declares the DXGK types itself (its host mode), so this builds
 * with any C99 compiler. */
#include <stdio.h>
#include <string.h>

#include "example_make_segments.h"

int main(void)
{
    EXAMPLE_MAKE_RUNTIME runtime;
    DXGK_QUERYSEGMENTIN in;
    DXGK_QUERYSEGMENTOUT3 out;
    DXGK_SEGMENTDESCRIPTOR3 desc[EXAMPLE_MAKE_SEGMENT_COUNT];
    DXGKARG_QUERYADAPTERINFO arg;
    NTSTATUS status;
    UINT i;

    /* What only the running driver knows: where the PCI bus put BAR fb. */
    memset(&runtime, 0, sizeof runtime);
    runtime.BarBase[EXAMPLE_MAKE_BAR_FB].QuadPart = 0xE0000000;

    memset(&in, 0, sizeof in); /* no AGP aperture */
    memset(&out, 0, sizeof out);
    memset(&arg, 0, sizeof arg);
    arg.Type = DXGKQAITYPE_QUERYSEGMENT3;
    arg.pInputData = &in;
    arg.InputDataSize = sizeof in;
    arg.pOutputData = &out;
    arg.OutputDataSize = sizeof out;

    /* First call: no descriptor array yet, so the handler gives the count. */
    out.pSegmentDescriptor = NULL;
    status = ExampleMakeQuerySegment3(&arg, &runtime);
    if (!NT_SUCCESS(status) || out.NbSegment > EXAMPLE_MAKE_SEGMENT_COUNT) {
        fprintf(stderr, "first call: status 0x%08lx, %u segments\n", (unsigned long)(ULONG)status, out.NbSegment);
        return 1;
    }

    /* Second call: an array of that many descriptors to fill. */
    out.pSegmentDescriptor = desc;
    status = ExampleMakeQuerySegment3(&arg, &runtime);
    if (!NT_SUCCESS(status)) {
        fprintf(stderr, "second call: status 0x%08lx\n", (unsigned long)(ULONG)status);
        return 1;
    }

    printf("example_make: %u segments, paging buffers in segment %u\n", out.NbSegment, out.PagingBufferSegmentId);
    for (i = 0; i < out.NbSegment; i++)
        printf("  segment %u: base 0x%llx size 0x%llx flags 0x%08x\n", i + 1,
               (unsigned long long)desc[i].BaseAddress.QuadPart, (unsigned long long)desc[i].Size,
               desc[i].Flags.Value);
    return 0;
}
