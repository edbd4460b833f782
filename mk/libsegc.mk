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

# ---- the Python module --------------------------------------------------------

# segc for CPython (python/segcmodule.c), built with Debian's python3-dev
# for /usr/bin/python3: build/python/segc.cpython-*.so, with libsegc's
# objects linked in (no libsegc.so to find at run time) and only
# PyInit_segc exported.  `make install` puts it where Debian's python3
# finds a module: /usr/lib/python3/dist-packages for PREFIX=/usr, else
# PREFIX/lib/python3.X/dist-packages.
PY_CONFIG ?= /usr/bin/python3-config
PY_EXT    := $(shell $(PY_CONFIG) --extension-suffix 2>/dev/null)
PY_MOD    := $(B)/python/segc$(PY_EXT)
PY_VER    := $(shell /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYDIR     ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/python$(PY_VER)/dist-packages)

python: $(PY_MOD)
$(B)/python/segcmodule.o: python/segcmodule.c compiler/libsegc.h
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -Wno-missing-prototypes $(CFLAGS) $(SANFLAGS) -fPIC -fvisibility=hidden \
	  $$($(PY_CONFIG) --includes) -Icompiler -c -o $@ $<
$(B)/python/segc.map: | $(B)
	@mkdir -p $(@D)
	printf '{ global: PyInit_segc; local: *; };\n' >$@
$(PY_MOD): $(B)/python/segcmodule.o $(LIB_OBJ) $(B)/python/segc.map
	$(CC) -shared -Wl,--version-script=$(B)/python/segc.map -Wl,--gc-sections $(ALL_LDFLAGS) \
	  -o $@ $(B)/python/segcmodule.o $(LIB_OBJ) $(YAML_LIBS)
	cp python/segc.pyi $(B)/python/segc.pyi

install-python: $(PY_MOD)
	install -d $(DESTDIR)$(PYDIR)
	install -m 644 $(PY_MOD) python/segc.pyi $(DESTDIR)$(PYDIR)
uninstall-python:
	rm -f $(DESTDIR)$(PYDIR)/$(notdir $(PY_MOD)) $(DESTDIR)$(PYDIR)/segc.pyi
ifneq ($(PY_EXT),)
install: install-python
uninstall: uninstall-python
endif

.PHONY: python install-python uninstall-python
