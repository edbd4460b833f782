# SPDX-License-Identifier: MIT
# mk/windows.mk - segc.exe, cross-built with mingw-w64 (included by the Makefile).

# ---- segc.exe ----------------------------------------------------------------

# x86_64 Windows, cross-built with Debian's mingw-w64 and statically linked
# (libyaml and jansson from Debian's source packages, winpthreads):
# build/windows/segc.exe, segc lsp included.
# The generators (re2c, Lemon, frag) run here; their output is shared.
WIN_CC     ?= x86_64-w64-mingw32-gcc
WIN_AR     ?= x86_64-w64-mingw32-ar
WB         := $(B)/windows
WIN_YAML   := $(WB)/libyaml/lib/libyaml.a
WIN_JSON   := $(WB)/jansson/lib/libjansson.a
WIN_EXE    := $(WB)/segc.exe
WIN_CFLAGS := -std=c11 -D_XOPEN_SOURCE=700 -D__USE_MINGW_ANSI_STDIO=1 -DYAML_DECLARE_STATIC -O2 \
              -Icompiler -I$(B)/gen -I$(WB)/libyaml/include -I$(WB)/jansson/include -MMD -MP
WIN_OBJ    := $(patsubst compiler/%.c,$(WB)/obj/%.o,$(C_SRC) compiler/main.c $(LSP_SRC)) \
              $(patsubst $(B)/gen/%.c,$(WB)/obj/gen/%.o,$(GEN_RE_C) $(GEN_Y_C) $(GEN_FRAG))

windows: $(WIN_EXE)
.PHONY: windows

$(WIN_YAML):
	sh build-aux/deb-src-mingw.sh libyaml $(WB)/libyaml $(WIN_CC) $(WIN_AR)
$(WIN_JSON):
	sh build-aux/deb-src-mingw.sh jansson $(WB)/jansson $(WIN_CC) $(WIN_AR)

$(WB)/obj/%.o: compiler/%.c $(WIN_YAML) $(WIN_JSON) | $(GEN_Y_H) $(B)/gen/frags.h
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_CFLAGS) $(WARN) -c -o $@ $<
# (gcc 12 sees an out-of-bounds read in Lemon's table lookup that its guard rules out.)
$(WB)/obj/gen/%.o: $(B)/gen/%.c $(WIN_YAML) | $(GEN_Y_H) $(B)/gen/frags.h
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_CFLAGS) -Wall -Werror -Wno-unused-variable -Wno-unused-but-set-variable -Wno-array-bounds -c -o $@ $<

$(WIN_EXE): $(WIN_OBJ) $(WIN_YAML) $(WIN_JSON)
	$(WIN_CC) -static -Wl,--no-insert-timestamp -o $@ $(WIN_OBJ) $(WIN_YAML) $(WIN_JSON) -lpthread

-include $(wildcard $(WB)/obj/*.d $(WB)/obj/gen/*.d $(WB)/obj/lsp/*.d)
