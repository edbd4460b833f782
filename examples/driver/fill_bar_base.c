/* SPDX-License-Identifier: MIT-0 */
/*
 * fill_bar_base.c - filling a board's <PREFIX>_RUNTIME.BarBase from the
 * translated resource list, the one segc cannot know at build time.
 *
 * A miniport gets the list from DxgkCbGetDeviceInformation (its
 * DXGK_DEVICE_INFO.TranslatedResourceList) in DxgkDdiStartDevice.  For a
 * PCI device the list holds one memory resource per implemented memory
 * BAR, in the order of the BAR registers: BAR0 first.  A 64-bit BAR is one
 * resource but takes two registers, so the resource after it belongs to
 * the register index two further on.  The generated header gives, by slot,
 * each BAR's PCI register index (<PREFIX>_PCI_BAR_TABLE) and its register
 * count (<PREFIX>_BAR_REGISTERS_TABLE); BARs the spec does not name are
 * taken as 32-bit, so name every 64-bit memory BAR of the device in the
 * spec's `bars:`.
 *
 * Compile it with the board's header included first and SEGC_GENERIC_NAMES
 * defined (so SEGC_RUNTIME and the tables name this board), or copy it and
 * spell the board's own names.  tests/gen compiles and runs it for every
 * sample.  In checked builds the generated handlers SEGC_ASSERT that every
 * slot they read was filled; map SEGC_ASSERT to the driver's own assertion
 * by defining it before the header.
 *
 * Returns TRUE when every BAR of the spec was found in the list.
 */
BOOLEAN SegcFillBarBase(_In_ const CM_RESOURCE_LIST *pTranslated, _Out_ SEGC_RUNTIME *pRuntime);

BOOLEAN SegcFillBarBase(_In_ const CM_RESOURCE_LIST *pTranslated, _Out_ SEGC_RUNTIME *pRuntime)
{
    static const UINT pciIndex[] = SEGC_PCI_BAR_TABLE;
    static const UINT registers[] = SEGC_BAR_REGISTERS_TABLE;
    const CM_PARTIAL_RESOURCE_LIST *list;
    ULONG i;
    UINT slot;
    UINT reg = 0; /* the PCI register index of the next memory resource */
    UINT found = 0;
    const UINT nbars = SEGC_BAR_COUNT; /* a variable: no "always false" warning when 0 */

    for (slot = 0; slot < sizeof pRuntime->BarBase / sizeof pRuntime->BarBase[0]; slot++) {
        pRuntime->BarBase[slot].QuadPart = 0;
    }
    if (pTranslated == NULL || pTranslated->Count == 0) {
        return (BOOLEAN)(nbars == 0);
    }
    /* A PCI device's resources are in the list's first (only) full descriptor. */
    list = &pTranslated->List[0].PartialResourceList;
    for (i = 0; i < list->Count; i++) {
        const CM_PARTIAL_RESOURCE_DESCRIPTOR *res = &list->PartialDescriptors[i];
        UINT width = 1;

        if (res->Type != CmResourceTypeMemory && res->Type != CmResourceTypeMemoryLarge) {
            continue;
        }
        for (slot = 0; slot < nbars; slot++) {
            if (pciIndex[slot] == reg) {
                pRuntime->BarBase[slot] = res->u.Memory.Start;
                width = registers[slot];
                found++;
            }
        }
        reg += width;
    }
    return (BOOLEAN)(found == nbars);
}
