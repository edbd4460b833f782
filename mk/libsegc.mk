# SPDX-License-Identifier: MIT
# mk/libsegc.mk - libsegc.so, its pkg-config file and its install (included by the Makefile).

SO_MAJOR := 0
SO       := $(B)/libsegc.so.$(SO_MAJOR)
LIBDIR   ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

all: $(B)/libsegc.so $(B)/libsegc.pc

# libsegc.so exports the functions compiler/libsegc.h declares, and only
# those: its version script is made from the header (LIBSEGC_0, every
# other symbol local), and --gc-sections leaves out what they do not
# reach (the command line's signal handling and file writing among it).
$(B)/libsegc.map: compiler/libsegc.h | $(B)
	{ echo 'LIBSEGC_$(SO_MAJOR) {'; echo '  global:'; \
	  sed -n '/^typedef/d; s/^[a-z_ ]*[ *]\(segc_[a-z0-9_]*\)(.*/    \1;/p' $<; \
	  echo '  local: *;'; echo '};'; } >$@
$(SO): $(LIB_OBJ) $(B)/libsegc.map
	$(CC) -shared -Wl,-soname,libsegc.so.$(SO_MAJOR) -Wl,--version-script=$(B)/libsegc.map -Wl,--gc-sections \
	  $(if $(SAN),,-Wl,-z,defs) $(ALL_LDFLAGS) -o $@ $(LIB_OBJ) $(YAML_LIBS)
$(B)/libsegc.so: $(SO)
	ln -sf libsegc.so.$(SO_MAJOR) $@

# The pkg-config file: for the build tree (build/libsegc.pc: the header in
# compiler/, the library here) and, made by `make install`, for PREFIX.
PC_SED = sed -e 's|@PREFIX@|$(1)|; s|@LIBDIR@|$(2)|; s|@INCLUDEDIR@|$(3)|; s|@VERSION@|$(VERSION)|'
$(B)/libsegc.pc: build-aux/libsegc.pc.in compiler/segc.h | $(B)
	$(call PC_SED,$(abspath .),$(abspath $(B)),$(abspath compiler)) $< >$@
$(B)/install/libsegc.pc: build-aux/libsegc.pc.in compiler/segc.h FORCE
	@mkdir -p $(@D)
	$(call PC_SED,$(PREFIX),$(LIBDIR),$(INCLUDEDIR)) $< >$@
FORCE:

install: install-libsegc
install-libsegc: $(SO) $(B)/install/libsegc.pc
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 $(SO) $(DESTDIR)$(LIBDIR)/libsegc.so.$(SO_MAJOR)
	ln -sf libsegc.so.$(SO_MAJOR) $(DESTDIR)$(LIBDIR)/libsegc.so
	install -m 644 compiler/libsegc.h $(DESTDIR)$(INCLUDEDIR)/libsegc.h
	install -m 644 $(B)/install/libsegc.pc $(DESTDIR)$(PKGCONFIGDIR)/libsegc.pc

uninstall: uninstall-libsegc
uninstall-libsegc:
	rm -f $(DESTDIR)$(LIBDIR)/libsegc.so.$(SO_MAJOR) $(DESTDIR)$(LIBDIR)/libsegc.so $(DESTDIR)$(INCLUDEDIR)/libsegc.h
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/libsegc.pc

.PHONY: install-libsegc uninstall-libsegc FORCE
