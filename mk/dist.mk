# SPDX-License-Identifier: MIT
# mk/dist.mk - make install, make uninstall and the release archives (included by the Makefile).

# ---- install ---------------------------------------------------------------

# segc, its man pages, the CMake package (find_package(segc)) and the JSON
# Schemas (for editors).
MANDIR   ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/segc
CMAKEDIR ?= $(PREFIX)/lib/cmake/segc
# Where bash-completion and zsh look for a command's completion.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
VERSION  := $(shell sed -n 's/^\#define SEGC_VERSION "\(.*\)"$$/\1/p' compiler/segc.h)

$(B)/segcConfigVersion.cmake: cmake/segcConfigVersion.cmake.in compiler/segc.h | $(B)
	sed 's/@SEGC_VERSION@/$(VERSION)/g' $< > $@

install: $(SEGC) $(B)/segcConfigVersion.cmake $(B)/segc.schema.json
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(CMAKEDIR)
	install -m 755 $(SEGC) $(DESTDIR)$(PREFIX)/bin/segc
	install -m 644 doc/segc.1 $(DESTDIR)$(MANDIR)/man1/segc.1
	install -m 644 doc/segc.5 $(DESTDIR)$(MANDIR)/man5/segc.5
	install -m 644 cmake/segcConfig.cmake $(B)/segcConfigVersion.cmake $(DESTDIR)$(CMAKEDIR)
	install -d $(DESTDIR)$(SHAREDIR)
	install -m 644 $(B)/segc.schema.json schema/model.schema.json schema/diagnostics.schema.json schema/diff.schema.json $(DESTDIR)$(SHAREDIR)
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 644 completions/segc.bash $(DESTDIR)$(BASHCOMPDIR)/segc
	install -m 644 completions/_segc $(DESTDIR)$(ZSHCOMPDIR)/_segc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/segc $(DESTDIR)$(MANDIR)/man1/segc.1 $(DESTDIR)$(MANDIR)/man5/segc.5
	rm -f $(DESTDIR)$(CMAKEDIR)/segcConfig.cmake $(DESTDIR)$(CMAKEDIR)/segcConfigVersion.cmake
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(SHAREDIR)/segc.schema.json $(DESTDIR)$(SHAREDIR)/model.schema.json $(DESTDIR)$(SHAREDIR)/diagnostics.schema.json $(DESTDIR)$(SHAREDIR)/diff.schema.json
	rmdir $(DESTDIR)$(SHAREDIR) 2>/dev/null || true
	rm -f $(DESTDIR)$(BASHCOMPDIR)/segc $(DESTDIR)$(ZSHCOMPDIR)/_segc
	rmdir $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(BASHCOMPDIR)/.. $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)/.. 2>/dev/null || true

# Release archives in $(B)/dist (build-aux/dist.sh): sources, Linux x86_64,
# Windows x86_64; the same commit gives the same bytes.
dist: $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake
	@sh build-aux/dist.sh $(B)/dist $(VERSION) $(SEGC) $(WIN_EXE) $(B)/segcConfigVersion.cmake

.PHONY: install uninstall dist
